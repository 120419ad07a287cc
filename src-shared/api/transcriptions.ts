// Section 4.1: transcriptions, their upload, and the 1.2.0 review operations. Each operation's schema
// is what the server validates and documents; the client's types are Static<> of the views below.
import { Type, type Static } from 'typebox';
import { LIMITS } from '../limits.js';
import {
  clientView,
  DateTime,
  EmptyBody,
  errorResponses,
  IfMatchHeaders,
  IfNoneMatchHeaders,
  NotModified,
  literalUnion,
  NullableString,
  PageQuery,
  TranscriptionStatusSchema,
} from './common.js';
import {
  FAILURE_CODES,
  TRANSCRIPTION_MODELS,
  TRANSCRIPTION_STAGES,
  TRANSCRIPTION_WARNING_CODES,
} from './vocabulary.js';
import { WordCreateRequest } from './dictionaries.js';

const tags = ['transcriptions'];

export const User = Type.Object({ user_id: Type.String(), name: Type.String() });

/** Extension: one of a Transcription's `warnings` (decision 0070). */
export const TranscriptionWarningSchema = Type.Object({
  code: literalUnion(TRANSCRIPTION_WARNING_CODES),
  message: Type.String({ description: 'English, for people reading the API; apps show their own text from the code.' }),
  likely_language: Type.Union([Type.String(), Type.Null()], {
    description: 'ISO 639-1 code of the language the audio sounds like; null when it cannot be told.',
  }),
});

/** 2.1 Transcription, as kikitori-server sends it. */
export const Transcription = Type.Object(
  {
    transcription_id: Type.String(),
    dictionary_id: NullableString,
    team_id: Type.String(),
    name: Type.String({ description: 'Name of the audio file.' }),
    user: User,
    transcription_path: Type.Union([Type.String(), Type.Null()], {
      description:
        'Signed, expiring URL of the transcript JSON (add ?format=srt|vtt|txt): its latest revision (docs/api/revisions.md). Null until COMPLETED.',
    }),
    audio_path: Type.Union([Type.String(), Type.Null()], {
      description: 'Signed, expiring URL of the uploaded audio, with HTTP Range support. Null until uploaded.',
    }),
    transcription_model: Type.String({
      description:
        'The requested model ("default" or "diarization-high") until the engine ran; then the engine/model that produced the transcript.',
    }),
    requested_model: Type.String({ description: 'Extension: the transcription_model asked for at upload.' }),
    status: TranscriptionStatusSchema,
    speaking_duration: Type.Union([Type.Number(), Type.Null()], {
      description: 'Seconds of detected speech. Null until COMPLETED.',
    }),
    created_at: DateTime,
    updated_at: DateTime,
    // Extensions (not in the spec): safe for clients that ignore unknown fields.
    language: Type.Array(Type.String(), { description: 'Extension: requested ISO 639-1 language codes.' }),
    upload_status: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')], {
      description: 'Extension: whether the audio has arrived.',
    }),
    upload_expires_at: Type.String({
      format: 'date-time',
      description: 'Extension: when an un-uploaded ticket is CANCELLED.',
    }),
    progress: Type.Union([Type.Number(), Type.Null()], {
      description: 'Extension: 0..1 while CONVERTING or IN_PROGRESS.',
    }),
    processing_started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'Extension: when the server began working on it (this attempt). Null while queued; kept once it ended.',
    }),
    stage: Type.Union([literalUnion(TRANSCRIPTION_STAGES), Type.Null()], {
      description: `Extension: what a running transcription is doing now: ${TRANSCRIPTION_STAGES.join(', ')}. Null while queued and once it ended.`,
    }),
    duration: Type.Union([Type.Number(), Type.Null()], {
      description: 'Extension: audio length in seconds, once converted.',
    }),
    failure_reason: Type.Union([Type.String(), Type.Null()], {
      description: "Extension: why it FAILED or was CANCELLED, in the server's words (English).",
    }),
    failure_code: Type.Union([literalUnion(FAILURE_CODES), Type.Null()], {
      description: `Extension: why it FAILED or was CANCELLED, as a closed code for clients to word in their own language: ${FAILURE_CODES.join(', ')}. Null otherwise, and for failures older than the code.`,
    }),
    engine: Type.Union([Type.String(), Type.Null()], {
      description: 'Extension: engine/model that produced the transcript.',
    }),
    num_speakers: Type.Union([Type.Integer(), Type.Null()]),
    min_speakers: Type.Union([Type.Integer(), Type.Null()]),
    max_speakers: Type.Union([Type.Integer(), Type.Null()]),
    multichannel: Type.Boolean({
      description: 'Extension: each channel was transcribed on its own as its own speaker (see the upload request).',
    }),
    recognize_speakers: Type.Boolean({
      description: "Extension: whether separated speakers are matched against the team's enrolled voices.",
    }),
    warnings: Type.Array(TranscriptionWarningSchema, {
      description:
        'Extension: what the server noticed about a finished transcription that its reader should know (empty when nothing), e.g. LANGUAGE_MISMATCH: the audio is most likely not in the language it was transcribed as.',
    }),
  },
  { $id: 'Transcription', title: 'Transcription' },
);
export type TranscriptionBody = Static<typeof Transcription>;

/** `user` and `transcription_model` arrived in revision 1.9.0; the rest are extensions. */
export const TranscriptionView = clientView(Transcription, [
  'user',
  'transcription_model',
  'requested_model',
  'language',
  'upload_status',
  'upload_expires_at',
  'progress',
  'processing_started_at',
  'stage',
  'duration',
  'failure_reason',
  'failure_code',
  'engine',
  'num_speakers',
  'min_speakers',
  'max_speakers',
  'multichannel',
  'recognize_speakers',
  'warnings',
]);

export const TranscriptionParams = Type.Object({ transcription_id: Type.String() });

const LanguageCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 639-1 code such as "en"' });

/** Digits without a leading zero, as many as max has (1..99 for 99); the upload handler checks the value. */
function digitsUpTo(max: number): string {
  return `^\\s*[1-9]${'[0-9]?'.repeat(String(max).length - 1)}\\s*$`;
}

/** num_speakers, min_speakers and max_speakers: the spec's sample sends strings, so both are taken. */
export const SpeakerCount = Type.Union(
  [
    Type.Integer({ minimum: LIMITS.speakers.min, maximum: LIMITS.speakers.max }),
    Type.String({ pattern: digitsUpTo(LIMITS.speakers.max) }),
  ],
  {
    description: `a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}, as an integer or a string such as "2"`,
  },
);

/** 4.1.1 Upload request body. */
/** The options a transcription is recognized with: at upload, and when it is transcribed again (decision 0062). */
const transcriptionOptionFields = {
  dictionary_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  language: Type.Optional(
    Type.Union([LanguageCode, Type.Array(LanguageCode, { minItems: 1, maxItems: 10 })], {
      description: 'an ISO 639-1 code such as "en", or an array of codes',
    }),
  ),
  transcription_model: Type.Optional(
    literalUnion(TRANSCRIPTION_MODELS, {
      description:
        'one of "default", "diarization-high". Both label speakers (SPEAKER_1, SPEAKER_2, ... on each segment; the ' +
        'count found automatically unless num_speakers, min_speakers or max_speakers are given); "diarization-high" ' +
        'runs the enhanced separation (more resegmentation passes), decision 0057.',
    }),
  ),
  num_speakers: Type.Optional(SpeakerCount),
  min_speakers: Type.Optional(SpeakerCount),
  max_speakers: Type.Optional(SpeakerCount),
};

export const UploadRequest = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: LIMITS.filename, pattern: '\\S' }),
    ...transcriptionOptionFields,
    multichannel: Type.Optional(
      Type.Boolean({
        description:
          "Extension (AssemblyAI's name): true transcribes each channel of the recording on its own and labels " +
          'each channel as its own speaker (channel 1 is SPEAKER_1, and each segment says its `channel`), merged ' +
          'by time with overlapping speech kept from both. No separation by voice runs, so it cannot be combined ' +
          'with speaker counts or "diarization-high". A one-channel file is transcribed as one speaker. Decision 0061.',
      }),
    ),
    recognize_speakers: Type.Optional(
      Type.Boolean({
        description:
          "Extension: false leaves the team's enrolled voices (/api/v1/speakers) out: segments keep SPEAKER_n " +
          'labels only. Default true: a separated speaker whose voice matches an enrolled one gets its ' +
          '`speaker_id`, `speaker_name` and `speaker_confidence`. Decision 0065.',
      }),
    ),
    words: Type.Optional(Type.Array(WordCreateRequest, { maxItems: LIMITS.bulkItems })),
  },
  { additionalProperties: false },
);

/**
 * Extension: the body of `/transcribe` on a finished transcription (decision 0062). An option left out keeps
 * what the transcription had; the three speaker counts go together (any given: the others are cleared).
 */
export const TranscribeAgainRequest = Type.Object(transcriptionOptionFields, { additionalProperties: false });

/** 2.2 Upload ticket. */
export const UploadTicket = Type.Object({
  transcription_id: Type.String(),
  dictionary_id: Type.Union([Type.String(), Type.Null()]),
  team_id: Type.String(),
  audio_upload_url: Type.String({ description: 'Signed URL: PUT the raw file here, no API key. Single use; expires.' }),
  transcription_model: Type.String(),
  audio_upload_expires_at: Type.String({ format: 'date-time', description: 'Extension: when the upload URL expires.' }),
  max_upload_bytes: Type.Integer({ description: 'Extension: largest accepted file.' }),
  language: Type.Array(Type.String(), {
    description:
      'Extension: the ISO 639-1 languages the audio will be recognized in. Empty: the engine detects the language. ' +
      'Without a requested language, an engine that cannot detect names the one language it uses (see docs/decisions/0018-languages.md).',
  }),
});
export const UploadTicketView = clientView(UploadTicket, [
  'transcription_model',
  'audio_upload_expires_at',
  'max_upload_bytes',
  'language',
]);

/** 4.1.2 Review (revision 1.2.0). */
export const Review = Type.Object({ transcription_id: Type.String(), reviewed_text: Type.String() });
export const ReviewRequest = Type.Object(
  { reviewed_text: Type.String({ maxLength: LIMITS.reviewedText }) },
  { additionalProperties: false },
);

// ---------- operations ----------

export const uploadTranscription = {
  method: 'POST',
  path: '/api/v1/transcriptions/upload',
  schema: {
    summary: 'Create a transcription and get a signed URL to upload its audio to',
    tags,
    body: UploadRequest,
    response: { 200: UploadTicket, ...errorResponses(400, 401, 404) },
  },
} as const;

export const transcribeTranscription = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/transcribe',
  schema: {
    summary: 'Start transcribing the uploaded audio (idempotent while running), or transcribe a finished one again',
    description:
      'Needs the upload to be complete (409 otherwise). A second call while the transcription is queued or running ' +
      'starts nothing new and returns the current record; a call without a body after it ended (COMPLETED, FAILED, ' +
      'CANCELLED) answers 409. Extension (decision 0062): a call with a JSON body of options (language, ' +
      'transcription_model, speaker counts, dictionary_id; an empty object keeps them all) on a COMPLETED or FAILED ' +
      'transcription transcribes it again from its stored audio, in place: the status goes back to CONVERTING, and the ' +
      'result becomes the next revision (source "transcribed-again"). With a body while it runs: 409; audio gone: 410. ' +
      'When audio_upload_url is a presigned object-storage URL, this call checks the uploaded object first: an empty file ' +
      'answers 400, one over the size limit 413, one past the team quota 403; the ticket stays open for another PUT.',
    tags,
    params: TranscriptionParams,
    body: TranscribeAgainRequest,
    headers: IfMatchHeaders,
    response: { 200: Type.Ref('Transcription'), ...errorResponses(400, 401, 403, 404, 409, 410, 412, 413, 503) },
  },
} as const;

export const listTranscriptions = {
  method: 'GET',
  path: '/api/v1/transcriptions',
  schema: {
    summary: 'List the team’s transcriptions, newest first',
    tags,
    querystring: PageQuery,
    response: { 200: Type.Array(Type.Ref('Transcription')), ...errorResponses(400, 401) },
  },
} as const;

export const getTranscription = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id',
  schema: {
    summary: 'Get a transcription and its status',
    tags,
    params: TranscriptionParams,
    response: { 200: Type.Ref('Transcription'), ...errorResponses(401, 404) },
  },
} as const;

export const deleteTranscription = {
  method: 'DELETE',
  path: '/api/v1/transcriptions/:transcription_id',
  schema: {
    summary:
      'Delete a transcription with its audio, transcript, review and analyses (needs the DELETE role; empty body)',
    tags,
    params: TranscriptionParams,
    response: { 200: EmptyBody, ...errorResponses(401, 403, 404) },
  },
} as const;

/** Issue 12: a dictionary's forced replacements applied to a finished transcript, without transcribing again. */
export const ApplyReplacementsRequest = Type.Object(
  {
    dictionary_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The dictionary whose forced replacements to apply; default: the transcription's own.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const applyReplacements = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/replacements/apply',
  schema: {
    summary: "Extension: apply a dictionary's forced replacements to a COMPLETED transcript",
    description:
      "Rewrites the stored transcript document with the dictionary's forced replacements (as a transcription would have), " +
      "adds them to the document's `replacements`, and marks each rewritten word with `replaced: {pattern, original}`. " +
      'It applies to the latest revision, edits included, and makes a new revision (docs/api/revisions.md); ' +
      '`If-Match: "<revision>"` answers 412 REVISION_CONFLICT when the transcript has moved on. ' +
      "The body may be empty: then the transcription's own dictionary is used (400 when it has none). Answers the Transcription; " +
      'fetch `transcription_path` again for the updated document.',
    tags,
    params: TranscriptionParams,
    headers: IfMatchHeaders,
    body: ApplyReplacementsRequest,
    response: { 200: Type.Ref('Transcription'), ...errorResponses(400, 401, 404, 409, 412) },
  },
} as const;

export const getReview = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/review',
  schema: {
    summary: "Get the reviewed (corrected) text: the latest revision's, one line per segment; 404 until one is saved",
    description:
      'The latest revision of the transcript (docs/api/revisions.md), one line per segment; 404 while the transcript is as ' +
      'recognized (revision 1). The ETag header is the revision; with `If-None-Match: "<revision>"` naming the latest, ' +
      'the answer is 304 without a body (a cheap check for a newer revision).',
    tags: ['review'],
    params: TranscriptionParams,
    headers: IfNoneMatchHeaders,
    response: { 200: Review, 304: NotModified, ...errorResponses(400, 401, 404) },
  },
} as const;

export const saveReview = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/review',
  schema: {
    summary: 'Save the reviewed (corrected) text of a COMPLETED transcription, as a new revision',
    description:
      'One line per segment maps onto the segments (words keep their times where they still match); any other text ' +
      'becomes one segment per line, spread over the transcript by length. The text becomes the next revision ' +
      '(docs/api/revisions.md); `If-Match: "<revision>"` answers 412 REVISION_CONFLICT when the transcript has moved on.',
    tags: ['review'],
    params: TranscriptionParams,
    headers: IfMatchHeaders,
    body: ReviewRequest,
    response: { 200: Review, ...errorResponses(400, 401, 404, 409, 412) },
  },
} as const;
