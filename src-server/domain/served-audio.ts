// What stored audio is served as: its media type, which only ever comes from a short list of shapes (a client's
// Content-Type or tus `filetype` is a claim, and a browser would believe it), and the file name it is saved under.
// The same whether this server sends the bytes or the store does (S3 mode). Issue 22, decision 0043.
import { create as contentDisposition } from 'content-disposition';
import mime from 'mime-types';
import type { TranscriptionRecord } from './records.js';

/** The only media types stored audio is served as; anything else is application/octet-stream. */
const AUDIO_MEDIA_TYPE = /^(audio|video)\/[a-z0-9.+-]{1,64}$/;
const OCTET_STREAM = 'application/octet-stream';

/** `value` (a Content-Type, parameters dropped) when it is an audio or video type of a safe shape, else null. */
export function acceptedMediaType(value: string | null | undefined): string | null {
  const type = value?.split(';')[0]?.trim().toLowerCase();
  return type && AUDIO_MEDIA_TYPE.test(type) ? type : null;
}

/** The type stored with an upload: from the file name's extension, else the type the client sent, else octet-stream. */
export function audioContentType(filename: string, sent: string | null | undefined): string {
  return acceptedMediaType(mime.lookup(filename) || null) ?? acceptedMediaType(sent) ?? OCTET_STREAM;
}

/**
 * Content-Type and Content-Disposition of a stored audio download. The type is checked again here: a record
 * stored before the check above may hold anything. The name is the transcription's (any language, quotes,
 * control characters): RFC 6266 with an ASCII fallback and the UTF-8 name in filename*.
 */
export function audioResponseHeaders(record: Pick<TranscriptionRecord, 'name' | 'audioContentType'>): {
  contentType: string;
  contentDisposition: string;
} {
  const name = record.name.trim().replace(/[\u0000-\u001f\u007f-\u009f/\\]+/g, '_') || 'audio';
  const fallback = name.replace(/[^\x20-\x7e]|["%\\]/g, '_');
  return {
    contentType: acceptedMediaType(record.audioContentType) ?? OCTET_STREAM,
    contentDisposition: contentDisposition(name, { fallback }),
  };
}
