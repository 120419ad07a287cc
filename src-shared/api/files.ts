// Signed-URL transfers: the audio upload behind audio_upload_url, and the downloads behind audio_path and
// transcription_path. No API key: the URL's signature is the credential.
import { Type, type Static } from 'typebox';
import { SPEAKER_STYLES, SUBTITLE_LIMITS } from '../subtitle-cues.js';
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

/**
 * Extension: the app's export options, for the server's own SRT and WebVTT (decision 0067). Without them
 * a download is what it always was. Bounds are the app's (SUBTITLE_LIMITS).
 */
export const SUBTITLE_QUERY_FIELDS = [
  'max_chars_per_line',
  'max_lines_per_cue',
  'max_cue_duration',
  'min_gap',
] as const;

export const TranscriptQuery = Type.Object({
  ...SignedQuery.properties,
  format: Type.Optional(literalUnion(TRANSCRIPT_FORMATS, { description: 'one of json, srt, vtt, txt' })),
  max_chars_per_line: Type.Optional(
    Type.Integer({
      minimum: SUBTITLE_LIMITS.maxCharsPerLine.min,
      maximum: SUBTITLE_LIMITS.maxCharsPerLine.max,
      description:
        "Extension (srt, vtt): characters per subtitle line; default the language's usual width (42; Japanese 13, Chinese and Korean 16).",
    }),
  ),
  max_lines_per_cue: Type.Optional(
    Type.Integer({
      minimum: SUBTITLE_LIMITS.maxLinesPerCue.min,
      maximum: SUBTITLE_LIMITS.maxLinesPerCue.max,
      description: 'Extension (srt, vtt): lines per subtitle; default 2.',
    }),
  ),
  max_cue_duration: Type.Optional(
    Type.Number({
      minimum: SUBTITLE_LIMITS.maxCueDuration.min,
      maximum: SUBTITLE_LIMITS.maxCueDuration.max,
      description: 'Extension (srt, vtt): the longest a subtitle is shown, in seconds; default 7.',
    }),
  ),
  min_gap: Type.Optional(
    Type.Number({
      minimum: SUBTITLE_LIMITS.minGap.min,
      maximum: SUBTITLE_LIMITS.minGap.max,
      description: 'Extension (srt, vtt): seconds between one subtitle and the next; default 0.08.',
    }),
  ),
  speakers: Type.Optional(
    literalUnion(SPEAKER_STYLES, {
      description:
        'Extension (srt, vtt, txt): how speakers are named. none; prefix ("Alice: " at each change of speaker); ' +
        'voice (WebVTT <v Alice> on every subtitle; SRT gets the prefix). Default: named when the transcript has ' +
        'two or more speakers or a named one (prefix in SRT and text, voice in WebVTT).',
    }),
  ),
  timestamps: Type.Optional(
    Type.Boolean({ description: 'Extension (txt): each line starts with its time, [hh:mm:ss]; default false.' }),
  ),
});
export type TranscriptQuery = Static<typeof TranscriptQuery>;

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
    description:
      'The latest revision (edits, speaker names and dictionary re-applies included). Extension: SRT and WebVTT take ' +
      "the desktop export's subtitle options as query parameters (max_chars_per_line, max_lines_per_cue, " +
      'max_cue_duration, min_gap, speakers); text takes speakers and timestamps. A subtitle option with another ' +
      'format is 400 VALIDATION_FAILED.',
    tags,
    security: [],
    params: SignedParams,
    querystring: TranscriptQuery,
    response: errorResponses(400, 403, 404),
  },
} as const;
