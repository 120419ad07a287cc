// Serves a cached audio file as a web Response with HTTP Range support, so <audio> can seek without
// loading the whole file. Used by the kikitori-media:// protocol (Electron) and by the end-to-end test
// host's /media/<id> route, so both answer the same way.
import fs from 'node:fs';
import { Readable } from 'node:stream';
import mime from 'mime-types';
import parseRange from 'range-parser';

export const MEDIA_SCHEME = 'kikitori-media';

export function mediaUrlOf(transcriptionId: string): string {
  return `${MEDIA_SCHEME}://audio/${encodeURIComponent(transcriptionId)}`;
}

export async function mediaResponse(
  filePath: string | null,
  method: string,
  rangeHeader: string | null,
): Promise<Response> {
  if (!filePath) return new Response('Not cached', { status: 404 });
  let size: number;
  try {
    const stat = await fs.promises.stat(filePath);
    if (!stat.isFile()) return new Response('Not found', { status: 404 });
    size = stat.size;
  } catch {
    return new Response('Not found', { status: 404 });
  }
  const headers = new Headers({
    'content-type': mime.lookup(filePath) || 'application/octet-stream',
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
  });
  let start = 0;
  let end = size - 1;
  let status = 200;
  if (rangeHeader) {
    const ranges = parseRange(size, rangeHeader, { combine: true });
    if (ranges === -1) {
      headers.set('content-range', `bytes */${size}`);
      return new Response(null, { status: 416, headers });
    }
    // A malformed header (-2) or several ranges: answer the whole file, which every client accepts.
    if (ranges !== -2 && ranges.length === 1) {
      start = ranges[0]!.start;
      end = ranges[0]!.end;
      status = 206;
      headers.set('content-range', `bytes ${start}-${end}/${size}`);
    }
  }
  headers.set('content-length', String(size === 0 ? 0 : end - start + 1));
  if (method === 'HEAD' || size === 0) return new Response(null, { status, headers });
  const stream = Readable.toWeb(fs.createReadStream(filePath, { start, end })) as ReadableStream<Uint8Array>;
  return new Response(stream, { status, headers });
}

/** The transcription id in a media URL; null for anything else. Standard schemes lowercase the host,
 * so the id is best carried in the path (`kikitori-media://audio/<id>`). */
export function mediaIdOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${MEDIA_SCHEME}:`) return null;
  const raw =
    parsed.host === 'audio'
      ? parsed.pathname.replace(/^\//, '')
      : parsed.pathname.replace(/^\/$/, '') === ''
        ? parsed.host
        : '';
  const id = decodeURIComponent(raw);
  return id && !id.includes('/') && id !== '..' && id !== '.' ? id : null;
}
