// Wire schemas shared by several routes. Route-specific request schemas live beside their handler.
// The OpenAPI document is generated from these.
import { Type, type Static, type TSchema } from 'typebox';
import { LIMITS } from '../../src-shared/limits.js';

export const ErrorBody = Type.Object(
  {
    error_id: Type.String({ description: 'Unique per occurrence; quote it when asking for support. Also in the server log line.' }),
    error_code: Type.Number({ description: 'Kind of error; see the error code table in docs/api/errors.md.' }),
    error_message: Type.String({ description: 'What went wrong and what to fix.' }),
    field: Type.Optional(
      Type.String({ description: 'Extension: dot-separated path of the bad input inside the body, query or path ("words.0.reading").' }),
    ),
  },
  { $id: 'ErrorBody', title: 'ErrorBody' },
);

const ErrorRef = Type.Ref('ErrorBody');

/** Response schemas for the given error statuses, all with the spec's error body. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorRef]));
}

const DateTime = Type.String({ format: 'date-time' });
const NullableString = Type.Union([Type.String(), Type.Null()]);

export const TranscriptionStatusSchema = Type.Union([
  Type.Literal('IN_PROGRESS'),
  Type.Literal('CONVERTING'),
  Type.Literal('COMPLETED'),
  Type.Literal('FAILED'),
  Type.Literal('CANCELLED'),
]);

/** DELETE operations answer 200 with an empty body. */
export const EmptyBody = Type.Unsafe<void>({ description: 'Empty body' });

export const Transcription = Type.Object(
  {
    transcription_id: Type.String(),
    dictionary_id: NullableString,
    team_id: Type.String(),
    name: Type.String({ description: 'Name of the audio file.' }),
    user: Type.Object({ user_id: Type.String(), name: Type.String() }),
    transcription_path: Type.Union([Type.String(), Type.Null()], {
      description: 'Signed, expiring URL of the transcript JSON (add ?format=srt|vtt|txt). Null until COMPLETED.',
    }),
    audio_path: Type.Union([Type.String(), Type.Null()], {
      description: 'Signed, expiring URL of the uploaded audio, with HTTP Range support. Null until uploaded.',
    }),
    transcription_model: Type.String({
      description: 'The requested model ("default" or "diarization-high") until the engine ran; then the engine/model that produced the transcript.',
    }),
    requested_model: Type.String({ description: 'Extension: the transcription_model asked for at upload.' }),
    status: TranscriptionStatusSchema,
    speaking_duration: Type.Union([Type.Number(), Type.Null()], { description: 'Seconds of detected speech. Null until COMPLETED.' }),
    created_at: DateTime,
    updated_at: DateTime,
    // Extensions (not in the spec): safe for clients that ignore unknown fields.
    language: Type.Array(Type.String(), { description: 'Extension: requested ISO 639-1 language codes.' }),
    upload_status: Type.Union([Type.Literal('PENDING'), Type.Literal('COMPLETED')], {
      description: 'Extension: whether the audio has arrived.',
    }),
    upload_expires_at: Type.String({ format: 'date-time', description: 'Extension: when an un-uploaded ticket is CANCELLED.' }),
    progress: Type.Union([Type.Number(), Type.Null()], { description: 'Extension: 0..1 while CONVERTING or IN_PROGRESS.' }),
    duration: Type.Union([Type.Number(), Type.Null()], { description: 'Extension: audio length in seconds, once converted.' }),
    failure_reason: Type.Union([Type.String(), Type.Null()], { description: 'Extension: why it FAILED or was CANCELLED.' }),
    engine: Type.Union([Type.String(), Type.Null()], { description: 'Extension: engine/model that produced the transcript.' }),
    num_speakers: Type.Union([Type.Integer(), Type.Null()]),
    min_speakers: Type.Union([Type.Integer(), Type.Null()]),
    max_speakers: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'Transcription', title: 'Transcription' },
);
export type TranscriptionBody = Static<typeof Transcription>;

export const Word = Type.Object(
  {
    word_id: Type.String(),
    dictionary_id: Type.String(),
    word: Type.String(),
    reading: NullableString,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Word', title: 'Word' },
);

export const BlacklistWord = Type.Object(
  {
    blacklist_word_id: Type.String(),
    dictionary_id: Type.String(),
    pattern: Type.String(),
    replacement: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'BlacklistWord', title: 'BlacklistWord' },
);

export const Dictionary = Type.Object(
  {
    dictionary_id: Type.String(),
    team_id: Type.String(),
    name: Type.String(),
    words: Type.Array(Type.Ref('Word')),
    blacklist_words: Type.Array(Type.Ref('BlacklistWord'), { description: 'Extension: the forced-replacement words.' }),
    is_temporary: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Dictionary', title: 'Dictionary' },
);

export const DictionaryListItem = Type.Object(
  {
    dictionary_id: Type.String(),
    team_id: Type.String(),
    name: Type.String(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'DictionaryListItem', title: 'DictionaryListItem' },
);

export { LIMITS };

const NonBlank = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', ...(description ? { description } : {}) });

export const WordCreateRequest = Type.Object(
  {
    word: NonBlank(LIMITS.word),
    reading: Type.Optional(Type.String({ maxLength: LIMITS.reading, description: 'Phonetic respelling ("zin tricks") or kana.' })),
  },
  { additionalProperties: false },
);

export const BlacklistWordCreateRequest = Type.Object(
  {
    pattern: NonBlank(LIMITS.pattern, 'Words to rewrite; matched whole-word and case-insensitively.'),
    replacement: Type.String({ maxLength: LIMITS.replacement }),
  },
  { additionalProperties: false },
);

export const DictionaryName = NonBlank(LIMITS.name);

export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1. A page past the end is [].' })),
});

export const sharedSchemas = [ErrorBody, Transcription, Word, BlacklistWord, Dictionary, DictionaryListItem];
