// Which permission requests the app grants (decision 0027): the microphone, and a screen share whose sound
// is the computer's own (decision 0082), to the app's own page, and nothing else: no camera, no
// notifications or geolocation from a page, and nothing at all to any other page. Pure, so it is unit-tested without Electron; window.ts hands it Electron's
// permission request and check handlers.
import type { TrustedUrl } from './ipc/trusted-sender.js';

/** What Electron tells a request handler and a check handler, reduced to what the decision reads. */
export interface PermissionQuery {
  /** Electron's permission name ('media', 'notifications', 'geolocation', ...). */
  permission: string;
  /** The URL of the frame asking. */
  requestingUrl: string;
  /** A request's media types ('audio', 'video'); empty when the page asks for neither. */
  mediaTypes?: readonly string[];
  /** A check's media type ('audio', 'video' or 'unknown'). */
  mediaType?: string;
}

export function permissionGranted(query: PermissionQuery, isTrusted: TrustedUrl): boolean {
  if (!isTrusted(query.requestingUrl)) return false;
  // The computer's sound is captured as a screen share's audio (system-audio.ts): the page may ask; what
  // it gets is decided by the display-media handler.
  if (query.permission === 'display-capture') return true;
  if (query.permission !== 'media') return false;
  if (query.mediaTypes !== undefined)
    return query.mediaTypes.length > 0 && query.mediaTypes.every((type) => type === 'audio');
  return query.mediaType === 'audio';
}
