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

export const UploadReceipt = Type.Object({ transcription_id: Type.String(), size: Type.Integer(), upload_status: Type.Literal('COMPLETED') });

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

export const downloadAudio = {
  method: 'GET',
  path: '/files/audio/:id',
  schema: {
    summary: 'Download the uploaded audio from a signed audio_path (Range requests answer 206)',
    description: 'With object storage (KIKITORI_STORAGE_URL) this answers 307 to a presigned URL of the store, which serves the bytes and Range requests.',
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
