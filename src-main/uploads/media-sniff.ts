// Is this file audio or video? Main looks at the file's first bytes before queueing an upload, so a
// dropped PDF or text file is refused at once with a clear message, instead of uploading and failing on
// the server. The server still validates everything (it decodes the audio); this check only refuses
// what is certainly not media:
//   - a file whose signature (file-type) names a type that is neither audio nor video (PDF, ZIP, PNG…);
//   - a file with no known signature whose start is text.
// A file with no known signature whose start is binary goes through: some media formats have none, and
// the server's decoder decides.
import fsp from 'node:fs/promises';
import { fileTypeFromBuffer } from 'file-type';

/** Container types file-type reports under application/ that hold audio or video. */
const MEDIA_APPLICATION_TYPES = new Set([
  'application/ogg',
  'application/x-matroska',
  'application/mp4',
  'application/vnd.ms-asf',
  'application/mxf',
]);

const SNIFF_BYTES = 4100;

export type MediaSniff = { media: true } | { media: false; detected: string };

export async function sniffMedia(filePath: string): Promise<MediaSniff> {
  const handle = await fsp.open(filePath, 'r');
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const type = await fileTypeFromBuffer(head);
  if (type) {
    const mime = type.mime.split(';')[0]!.trim();
    if (mime.startsWith('audio/') || mime.startsWith('video/') || MEDIA_APPLICATION_TYPES.has(mime))
      return { media: true };
    return { media: false, detected: type.ext };
  }
  return looksLikeText(head) ? { media: false, detected: 'text' } : { media: true };
}

/** Valid UTF-8 with no control characters other than tab, newline, carriage return and form feed. */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return false;
  // A multi-byte character may be cut at the end of the sample.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimPartialCharacter(head)));
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000e-\u001f\u007f]/.test(text);
}

function trimPartialCharacter(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back]!;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}
