// Section 4.1 analyses. Results may carry extension fields that point back into the transcript
// (segment ids and start/end times) next to the spec's fields.
import { Type } from 'typebox';
import type { EmotionEntry, SummaryDetails, TranslatedSegment } from '../../../../src-shared/analysis.js';
import type { RouteModule } from '../../api-app.js';
import { analysisRoutes, commonResult, commonResultFields } from './analysis-routes.js';

const Anchor = { segment_id: Type.Integer(), start: Type.Number(), end: Type.Number() };
const Item = Type.Object({ ...Anchor, text: Type.String() });
const ActionItem = Type.Object({ ...Anchor, text: Type.String(), owner: Type.Union([Type.String(), Type.Null()]), due: Type.Union([Type.String(), Type.Null()]) });
const Scores = Type.Object(
  Object.fromEntries(['anger', 'disgust', 'fear', 'joy', 'neutral', 'sadness', 'surprise'].map((l) => [l, Type.Number()])),
);

const summary = analysisRoutes({
  kind: 'summary',
  segment: 'summary',
  label: 'summary',
  result: Type.Object({
    ...commonResultFields,
    summarized_text: Type.String({ description: 'Overview, key points, action items and decisions. Empty until COMPLETED.' }),
    overview: Type.Optional(Type.String()),
    key_points: Type.Optional(Type.Array(Item)),
    action_items: Type.Optional(Type.Array(ActionItem)),
    decisions: Type.Optional(Type.Array(Item)),
    dates: Type.Optional(Type.Array(Item)),
  }),
  toBody: (record) => {
    const result = record.result as (SummaryDetails & { summarized_text: string }) | null;
    return { ...commonResult(record), summarized_text: result?.summarized_text ?? '', ...(result ?? {}) };
  },
});

const emotion = analysisRoutes({
  kind: 'emotion',
  segment: 'emotion',
  label: 'emotion analysis',
  result: Type.Object({
    ...commonResultFields,
    emotions: Type.Array(
      Type.Object({
        segment_id: Type.Union([Type.Integer(), Type.Null()], { description: 'null for the whole-transcript entry' }),
        start: Type.Number(),
        end: Type.Number(),
        speaker: Type.Union([Type.String(), Type.Null()]),
        label: Type.String(),
        score: Type.Number(),
        scores: Scores,
      }),
      { description: 'One entry per segment and one (segment_id null) for the whole transcript. Empty until COMPLETED.' },
    ),
  }),
  toBody: (record) => ({ ...commonResult(record), emotions: (record.result as { emotions: EmotionEntry[] } | null)?.emotions ?? [] }),
});

const translation = analysisRoutes({
  kind: 'translation',
  segment: 'translate',
  label: 'translation',
  result: Type.Object({
    ...commonResultFields,
    translated_text: Type.String({ description: 'Empty until COMPLETED.' }),
    language: Type.String({ description: 'Extension: target language.' }),
    source_language: Type.Union([Type.String(), Type.Null()], { description: 'Extension: language of the transcript.' }),
    segments: Type.Array(Type.Object({ ...Anchor, text: Type.String() }), { description: 'Extension: the translation segment by segment.' }),
  }),
  toBody: (record) => {
    const result = record.result as { translated_text: string; source_language: string; segments: TranslatedSegment[] } | null;
    return {
      ...commonResult(record),
      translated_text: result?.translated_text ?? '',
      language: record.language,
      source_language: result?.source_language ?? null,
      segments: result?.segments ?? [],
    };
  },
});

export const analysisRouteModules: RouteModule[] = [...summary, ...emotion, ...translation];
