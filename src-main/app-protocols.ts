// The app's two privileged schemes (decision 0090):
// - kikitori-app://app/…: the renderer's own files (dist/renderer), so the window is a standard, secure
//   origin whose scripts Chromium keeps compiled between starts (V8's code cache is for http(s) and for
//   schemes registered with codeCache; file:// pages get none).
// - kikitori-media://audio/<transcription id> (or kikitori-media://<id>): cached audio for the renderer's
//   <audio>, with Range, so media can stream and seek; it serves only files that main's cache resolves
//   for an id, never arbitrary paths.
import { protocol } from 'electron';
import { MEDIA_SCHEME, mediaIdOf, mediaResponse } from './media-response.js';
import { rendererFileResponse } from './renderer-files.js';
import { APP_HOST, APP_SCHEME } from './window-location.js';

/** Must run before the app is ready, and once: Electron takes one list of privileged schemes. */
export function registerSchemesSync(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } },
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
  ]);
}

export function handleAppProtocol(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || url.host !== APP_HOST)
      return new Response('Not found', { status: 404 });
    return rendererFileResponse(rendererDir, url.pathname);
  });
}

export function handleMediaProtocol(resolveMediaPath: (id: string) => string | null | Promise<string | null>): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Not found', { status: 404 });
    const id = mediaIdOf(request.url);
    if (!id) return new Response('Not found', { status: 404 });
    return mediaResponse(await resolveMediaPath(id), request.method, request.headers.get('range'));
  });
}
