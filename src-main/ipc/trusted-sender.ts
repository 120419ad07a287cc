// Which frames may call the handlers: only the app's own renderer. Pure, so it is unit-tested without
// Electron; typed-ipc.ts applies it to every call and every event.

/** Tells whether a frame URL is the app's own renderer (its kikitori-app:// page, or the dev server). */
export type TrustedUrl = (url: string) => boolean;

/**
 * The trust rule: same scheme and host as the renderer's index.html (kikitori-app://app, or the dev
 * server's http origin); for a file:// index, that very file. Compared by parts, not by `origin`: for a
 * scheme the WHATWG URL parser does not know, `origin` is "null" for every URL, so any page would match.
 */
export function trustedRendererUrl(rendererIndexUrl: string): TrustedUrl {
  const index = new URL(rendererIndexUrl);
  const same =
    index.protocol === 'file:'
      ? (candidate: URL) => candidate.protocol === 'file:' && candidate.pathname === index.pathname
      : (candidate: URL) =>
          candidate.protocol === index.protocol &&
          candidate.host === index.host &&
          candidate.username === '' &&
          candidate.password === '';
  return (url) => {
    try {
      return same(new URL(url));
    } catch {
      return false;
    }
  };
}
