// Signed-URL transfers: the audio upload behind audio_upload_url, and the downloads behind audio_path and
// transcription_path. No API key: the URL's signature is the credential.
import { Type } from 'typebox';
import { errorResponses, literalUnion } from './common.js';

const tags = ['files'];

/** Formats a transcript document can be downloaded in (`transcription_path` + `&format=`). */
export const TRANSCRIPT_FORMATS = ['json', 'srt', 'vtt', 'txt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const SignedParams = Type.Object({ id: Type.String() });
export const SignedQuery = Type.Object({
  expires: Type.Optional(Type.String()),
  signature: Type.Optional(Type.String()),
});

export const TranscriptQuery = Type.Object({
  ...SignedQuery.properties,
  format: Type.Optional(literalUnion(TRANSCRIPT_FORMATS, { description: 'one of json, srt, vtt, txt' })),
});

export const UploadReceipt = Type.Object({
  transcription_id: Type.String(),
  size: Type.Integer(),
  upload_status: Type.Literal('COMPLETED'),
  /** Extension: the SHA-256 (lowercase hex) of the stored audio, as the server computed it. */
  sha256: Type.Optional(Type.String()),
});

// ---------- operations ----------

export const uploadAudio = {
  method: 'PUT',
  path: '/files/upload/:id',
  schema: {
    summary: 'Upload the audio file to a signed audio_upload_url (no API key; raw bytes; single use)',
    tags,
    security: [],
    params: SignedParams,
    querystring: SignedQuery,
    response: { 200: UploadReceipt, ...errorResponses(400, 403, 404, 409, 413) },
  },
} as const;

// tus 1.0 (https://tus.io/protocols/resumable-upload) on the same signed URL: POST creates an upload and
// answers its Location (signed like the ticket's URL); HEAD gives its offset; PATCH appends; DELETE drops it.
// Decision 0032.
const tusSummary = 'Resumable upload (tus 1.0) behind a signed audio_upload_url';
export const TusUploadParams = Type.Object({ id: Type.String(), uploadId: Type.String() });

export const tusOptions = {
  method: 'OPTIONS',
  path: '/files/upload/:id',
  schema: {
    summary: `${tusSummary}: what the server supports (Tus-Version, Tus-Extension, Tus-Max-Size)`,
    tags,
    security: [],
    params: SignedParams,
  },
} as const;

export const tusCreate = {
  method: 'POST',
  path: '/files/upload/:id',
  schema: {
    summary: `${tusSummary}: create the upload (Upload-Length required); answers 201 with its Location`,
    tags,
    security: [],
    params: SignedParams,
    querystring: SignedQuery,
    response: errorResponses(400, 403, 404, 409, 412, 413, 507),
  },
} as const;

export const tusOffset = {
  method: 'HEAD',
  path: '/files/upload/:id/tus/:uploadId',
  schema: {
    summary: `${tusSummary}: the offset the server has (Upload-Offset)`,
    tags,
    security: [],
    params: TusUploadParams,
    querystring: SignedQuery,
  },
} as const;

export const tusAppend = {
  method: 'PATCH',
  path: '/files/upload/:id/tus/:uploadId',
  schema: {
    summary: `${tusSummary}: append bytes at Upload-Offset (application/offset+octet-stream); the last PATCH stores the audio`,
    tags,
    security: [],
    params: TusUploadParams,
    querystring: SignedQuery,
    response: errorResponses(400, 403, 404, 409, 412, 413, 507),
  },
} as const;

export const tusTerminate = {
  method: 'DELETE',
  path: '/files/upload/:id/tus/:uploadId',
  schema: {
    summary: `${tusSummary}: drop an unfinished upload`,
    tags,
    security: [],
    params: TusUploadParams,
    querystring: SignedQuery,
    response: errorResponses(400, 403, 404),
  },
} as const;

export const downloadAudio = {
  method: 'GET',
  path: '/files/audio/:id',
  schema: {
    summary: 'Download the uploaded audio from a signed audio_path (Range requests answer 206)',
    description:
      'With object storage (KIKITORI_STORAGE_URL) this answers 307 to a presigned URL of the store, which serves the bytes and Range requests.',
    tags,
    security: [],
    params: SignedParams,
    querystring: SignedQuery,
    response: errorResponses(403, 404, 416),
  },
} as const;

export const downloadTranscript = {
  method: 'GET',
  path: '/files/transcript/:id',
  schema: {
    summary: 'Download the transcript from a signed transcription_path; ?format=json (default), srt, vtt or txt',
    tags,
    security: [],
    params: SignedParams,
    querystring: TranscriptQuery,
    response: errorResponses(400, 403, 404),
  },
} as const;
