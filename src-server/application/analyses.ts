// Summary, emotion and translation of a team's completed transcription: requesting one (which queues it
// through the domain's AnalysisService) and reading its latest result.
import { isLanguageCode } from '../../src-shared/languages.js';
import type { AppContext } from '../app-context.js';
import type { AnalysisKind, AnalysisRecord } from '../db/analysis-repository.js';
import type { TranslationChoices } from '../domain/analysis-engines.js';
import { sourceLanguage } from '../domain/analysis-service.js';
import type { Caller } from '../domain/records.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';

/** What the analysis use cases reach: only these parts of the context. */
export type AnalysesContext = Pick<AppContext, 'transcriptions' | 'analyses' | 'analysisService' | 'revisions'>;

// Adapters name an analysis's kind and record through this layer, not db/.
export type { AnalysisKind, AnalysisRecord };

/** How an analysis is named to the client in a not-found message. */
export interface AnalysisNames {
  label: string;
  /** Path segment after the transcription id: summary, emotion, translate. */
  segment: string;
}

/**
 * Queues the analysis of the caller's completed transcription. `language` is the translation's target
 * (any case; answered in lower case), ignored otherwise. Another team's transcription answers as unknown.
 */
export async function requestAnalysis(
  ctx: AnalysesContext,
  caller: Caller,
  transcriptionId: string,
  kind: AnalysisKind,
  language: string | undefined,
): Promise<{ transcriptionId: string; language: string }> {
  let target = '';
  if (kind === 'translation') {
    target = (language ?? '').toLowerCase();
    if (!isLanguageCode(target))
      throw errors.validation(`language must be an ISO 639-1 code such as "es"; got "${target}".`, 'language');
  }
  const record = await findTranscription(ctx, caller, transcriptionId);
  const refusal = await ctx.analysisService.request(record, kind, target);
  if (refusal?.kind === 'not-completed') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
  if (refusal?.kind === 'unsupported-language')
    throw errors.unsupportedLanguage(refusal.message, kind === 'translation' ? 'language' : undefined);
  return { transcriptionId: record.transcriptionId, language: target };
}

/** The latest result of the caller's transcription's analysis; none requested yet is an error. */
export async function readAnalysis(
  ctx: AnalysesContext,
  caller: Caller,
  transcriptionId: string,
  kind: AnalysisKind,
  language: string | undefined,
  names: AnalysisNames,
): Promise<AnalysisRecord & { currentRevision: number | null }> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  const target = kind === 'translation' ? language?.toLowerCase() : '';
  const analysis = await ctx.analyses.get(record.transcriptionId, kind, target);
  if (!analysis) throw errors.analysisNotFound(record.transcriptionId, names.label, names.segment, target);
  // The transcript's latest revision, so a result from an older one says so (decision 0052).
  const currentRevision =
    record.status === 'COMPLETED' && record.transcriptKey ? await ctx.revisions.latestNumber(record) : null;
  return { ...analysis, currentRevision };
}

/** What the caller's transcription can be translated into: offline, and through the LLM endpoint. */
export async function translationTargets(
  ctx: Pick<AppContext, 'transcriptions' | 'analysisEngines'>,
  caller: Caller,
  transcriptionId: string,
): Promise<{ transcriptionId: string; source: string } & TranslationChoices> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  const source = sourceLanguage(record);
  return { transcriptionId: record.transcriptionId, source, ...ctx.analysisEngines.translationChoices(source) };
}
