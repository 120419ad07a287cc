// Section 4.1 analyses: summary, emotion and translation share one shape. POST queues the analysis and
// answers the asynchronous acknowledgment (2.9); GET reads the latest result with its status. Results may
// carry extension fields that point back into the transcript (segment ids and start/end times).
import { Type, type TSchema } from 'typebox';
import { EMOTION_LABELS } from '../analysis.js';
import { clientView, errorResponses, literalUnion } from './common.js';
import { TranscriptionParams } from './transcriptions.js';
import { FAILURE_CODES } from './vocabulary.js';

const tags = ['analyses'];

/** One vocabulary for all three (docs/decisions/0006-analyses.md). */
export const AnalysisStatusSchema = Type.Union([
  Type.Literal('IN_PROGRESS'),
  Type.Literal('COMPLETED'),
  Type.Literal('FAILED'),
]);

/** 2.9 Asynchronous acknowledgment. */
export const AsyncAck = Type.Object({
  transcription_id: Type.String(),
  is_async: Type.Literal(true),
  status_url: Type.String({ description: 'GET this URL (with your API key) to read the result and its status.' }),
});

/** Fields every analysis result carries besides its own. */
const commonResultFields = {
  transcription_id: Type.String(),
  status: AnalysisStatusSchema,
  engine: Type.Union([Type.String(), Type.Null()], { description: 'Extension: the engine that produced it.' }),
  error: Type.Union([Type.String(), Type.Null()], {
    description: "Extension: why it FAILED, in the server's words (English).",
  }),
  error_code: Type.Union([literalUnion(FAILURE_CODES), Type.Null()], {
    description: `Extension: why it FAILED, as a closed code for clients to word in their own language: ${FAILURE_CODES.join(', ')}.`,
  }),
  requested_at: Type.String({ format: 'date-time', description: 'Extension: when this run was requested.' }),
  updated_at: Type.String({ format: 'date-time' }),
  revision: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'Extension: the transcript revision it was computed from (docs/api/revisions.md); null while it runs, and for results computed before revisions were kept.',
  }),
  current_revision: Type.Union([Type.Integer(), Type.Null()], {
    description: "Extension: the transcript's latest revision now.",
  }),
  outdated: Type.Boolean({
    description:
      'Extension: true when the transcript has changed since this result was computed (revision < current_revision); request it again for the latest.',
  }),
};
const commonExtensions = [
  'engine',
  'error',
  'error_code',
  'requested_at',
  'updated_at',
  'revision',
  'current_revision',
  'outdated',
] as const;

const Anchor = { segment_id: Type.Integer(), start: Type.Number(), end: Type.Number() };
const Item = Type.Object({ ...Anchor, text: Type.String() });
const ActionItem = Type.Object({
  ...Anchor,
  text: Type.String(),
  owner: Type.Union([Type.String(), Type.Null()]),
  due: Type.Union([Type.String(), Type.Null()]),
});
const Scores = Type.Object({
  anger: Type.Number(),
  disgust: Type.Number(),
  fear: Type.Number(),
  joy: Type.Number(),
  neutral: Type.Number(),
  sadness: Type.Number(),
  surprise: Type.Number(),
});

/** 2.6 Summary result, with the anchored details. */
export const SummaryResult = Type.Object({
  ...commonResultFields,
  summarized_text: Type.String({
    description: 'Overview, key points, action items and decisions. Empty until COMPLETED.',
  }),
  overview: Type.Optional(Type.String()),
  key_points: Type.Optional(Type.Array(Item)),
  action_items: Type.Optional(Type.Array(ActionItem)),
  decisions: Type.Optional(Type.Array(Item)),
  dates: Type.Optional(Type.Array(Item)),
});
export const SummaryResultView = clientView(SummaryResult, commonExtensions);

/** 2.7 Emotion result: the spec does not show an entry's shape; this is kikitori-server's. */
export const EmotionResult = Type.Object({
  ...commonResultFields,
  emotions: Type.Array(
    Type.Object({
      segment_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for the whole-transcript entry' }),
      start: Type.Number(),
      end: Type.Number(),
      speaker: Type.Union([Type.String(), Type.Null()]),
      label: literalUnion(EMOTION_LABELS),
      score: Type.Number(),
      scores: Scores,
    }),
    { description: 'One entry per segment and one (segment_id null) for the whole transcript. Empty until COMPLETED.' },
  ),
});
export const EmotionResultView = clientView(EmotionResult, commonExtensions);

/** 2.8 Translation result. */
export const TranslationResult = Type.Object({
  ...commonResultFields,
  translated_text: Type.String({ description: 'Empty until COMPLETED.' }),
  language: Type.String({ description: 'Extension: target language.' }),
  source_language: Type.Union([Type.String(), Type.Null()], { description: 'Extension: language of the transcript.' }),
  segments: Type.Array(Type.Object({ ...Anchor, text: Type.String() }), {
    description: 'Extension: the translation segment by segment.',
  }),
});
export const TranslationResultView = clientView(TranslationResult, [
  ...commonExtensions,
  'language',
  'source_language',
  'segments',
]);

export const TranslateRequest = Type.Object(
  { language: Type.String({ description: 'Target language, ISO 639-1' }) },
  { additionalProperties: false },
);
export const TranslationQuery = Type.Object({ language: Type.Optional(Type.String()) });

// ---------- operations ----------

const requestSchema = (label: string) => ({
  summary: `Request the ${label} of a COMPLETED transcription (asynchronous; posting again re-runs it)`,
  tags,
  params: TranscriptionParams,
  response: { 200: AsyncAck, ...errorResponses(400, 401, 404, 409) },
});

const readSchema = <Result extends TSchema>(label: string, result: Result) => ({
  summary: `Read the ${label} and its status (404 until requested)`,
  tags,
  params: TranscriptionParams,
  response: { 200: result, ...errorResponses(401, 404) },
});

export const requestSummary = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/summary',
  schema: requestSchema('summary'),
} as const;

export const getSummary = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/summary',
  schema: readSchema('summary', SummaryResult),
} as const;

export const requestEmotion = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/emotion',
  schema: requestSchema('emotion analysis'),
} as const;

export const getEmotion = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/emotion',
  schema: readSchema('emotion analysis', EmotionResult),
} as const;

export const requestTranslation = {
  method: 'POST',
  path: '/api/v1/transcriptions/:transcription_id/translate',
  schema: { ...requestSchema('translation'), body: TranslateRequest },
} as const;

export const getTranslation = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/translate',
  schema: {
    ...readSchema('translation', TranslationResult),
    description:
      'Without ?language= the most recently requested translation; with it, the translation into that language (extension).',
    querystring: TranslationQuery,
  },
} as const;

/** Extension: what a transcription can be translated into, and what each target needs (decision 0087). */
export const TranslationTargets = Type.Object({
  transcription_id: Type.String(),
  source_language: Type.String({ description: 'The transcript language the targets are from.' }),
  offline: Type.Array(Type.String(), {
    description: 'ISO 639-1 targets this server translates on its own (installed apertium pairs), sorted.',
  }),
  llm: Type.Array(Type.String(), {
    description:
      'ISO 639-1 targets named by an engine that goes through the configured LLM endpoint and not served offline, sorted.',
  }),
  llm_any_language: Type.Boolean({
    description:
      'true: an LLM endpoint is configured (KIKITORI_LLM_BASE_URL) and translates into any other ISO 639-1 language; false: only the targets listed.',
  }),
});

export const getTranslationTargets = {
  method: 'GET',
  path: '/api/v1/transcriptions/:transcription_id/translate/targets',
  schema: {
    summary:
      'Extension: the target languages a translation of this transcription can have, offline and through the LLM',
    tags,
    params: TranscriptionParams,
    response: { 200: TranslationTargets, ...errorResponses(401, 404) },
  },
} as const;
