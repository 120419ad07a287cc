// Which frames may call the handlers: only the app's own renderer. Pure, so it is unit-tested without
// Electron; typed-ipc.ts applies it to every call and every event.

/** Tells whether a frame URL is the app's own renderer (its file:// page, or the dev server). */
export type TrustedUrl = (url: string) => boolean;

/** The trust rule: same file as the renderer's index.html, or same origin as the dev server. */
export function trustedRendererUrl(rendererIndexUrl: string): TrustedUrl {
  const index = new URL(rendererIndexUrl);
  if (index.protocol === 'file:') {
    return (url) => {
      try {
        const candidate = new URL(url);
        return candidate.protocol === 'file:' && candidate.pathname === index.pathname;
      } catch {
        return false;
      }
    };
  }
  return (url) => {
    try {
      return new URL(url).origin === index.origin;
    } catch {
      return false;
    }
  };
}
