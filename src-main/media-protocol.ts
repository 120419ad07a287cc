// kikitori-media://audio/<transcription id> (or kikitori-media://<id>): cached audio for the renderer's
// <audio>, with Range.
// A privileged standard scheme so media can stream and seek; it serves only files that main's cache
// resolves for an id, never arbitrary paths.
import { protocol } from 'electron';
import { MEDIA_SCHEME, mediaIdOf, mediaResponse } from './media-response.js';

/** Must run before the app is ready. */
export function registerMediaSchemeSync(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true, supportFetchAPI: true } },
  ]);
}

export function handleMediaProtocol(resolveMediaPath: (id: string) => string | null | Promise<string | null>): void {
  protocol.handle(MEDIA_SCHEME, async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Not found', { status: 404 });
    const id = mediaIdOf(request.url);
    if (!id) return new Response('Not found', { status: 404 });
    return mediaResponse(await resolveMediaPath(id), request.method, request.headers.get('range'));
  });
}
