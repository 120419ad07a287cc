// Section 4.1 analyses. Results may carry extension fields that point back into the transcript
// (segment ids and start/end times) next to the spec's fields.
import * as contract from '../../../../src-shared/api/analyses.js';
import type { EmotionEntry, SummaryDetails, TranslatedSegment } from '../../../../src-shared/analysis.js';
import { translationTargets } from '../../../application/analyses.js';
import { callerOf } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';
import { analysisRoutes, commonResult } from './analysis-routes.js';

const summary = analysisRoutes({
  kind: 'summary',
  segment: 'summary',
  label: 'summary',
  operations: { request: contract.requestSummary, read: contract.getSummary },
  toBody: (record) => {
    const result = record.result as (SummaryDetails & { summarized_text: string }) | null;
    return { ...commonResult(record), summarized_text: result?.summarized_text ?? '', ...(result ?? {}) };
  },
});

const emotion = analysisRoutes({
  kind: 'emotion',
  segment: 'emotion',
  label: 'emotion analysis',
  operations: { request: contract.requestEmotion, read: contract.getEmotion },
  toBody: (record) => ({
    ...commonResult(record),
    emotions: (record.result as { emotions: EmotionEntry[] } | null)?.emotions ?? [],
  }),
});

const translation = analysisRoutes({
  kind: 'translation',
  segment: 'translate',
  label: 'translation',
  operations: { request: contract.requestTranslation, read: contract.getTranslation },
  toBody: (record) => {
    const result = record.result as {
      translated_text: string;
      source_language: string;
      segments: TranslatedSegment[];
    } | null;
    return {
      ...commonResult(record),
      translated_text: result?.translated_text ?? '',
      language: record.language,
      source_language: result?.source_language ?? null,
      segments: result?.segments ?? [],
    };
  },
});

const targets: RouteModule = (app, ctx) =>
  app.get(contract.getTranslationTargets.path, { schema: contract.getTranslationTargets.schema }, async (request) => {
    const id = request.params.transcription_id;
    const choices = await translationTargets(ctx, callerOf(request), id);
    return {
      transcription_id: choices.transcriptionId,
      source_language: choices.source,
      offline: choices.offline,
      llm: choices.llm,
      llm_any_language: choices.llmAnyLanguage,
    };
  });

export const analysisRouteModules: RouteModule[] = [...summary, ...emotion, ...translation, targets];
