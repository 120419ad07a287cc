// Summary, emotion and translation: requested on the server, read into the cache (and the search
// index), readable offline once read.
import type { ApiSummaryResult, ApiTranslationResult } from '../../src-shared/api-types.js';
import { ErrorCode } from '../../src-shared/error-codes.js';
import type { AnalysisKind, AnalysisView, TranslationTargets } from '../../src-shared/ipc-contract.js';
import { ApiError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import { analysisView, type ApiAnalysisResult, type CachedAnalysis } from '../cache/analysis-repository.js';
import type { CacheStore } from '../cache/cache-store.js';

export interface AnalysisServiceOptions {
  store: CacheStore;
  client: ApiClient;
  /** Told when a cached result changed. */
  onChanged: (id: string, kind: AnalysisKind, language: string | null) => void;
}

export class AnalysisService {
  constructor(private readonly options: AnalysisServiceOptions) {}

  /** Requests (or re-runs) an analysis; the result is IN_PROGRESS until the poller sees it end. */
  async request(id: string, kind: AnalysisKind, language?: string): Promise<AnalysisView> {
    const { client } = this.options;
    if (kind === 'summary') await client.requestSummary(id);
    else if (kind === 'emotion') await client.requestEmotion(id);
    else await client.requestTranslation(id, language!);
    const view = await this.get(id, kind, language);
    if (view) return view;
    // A server that does not show the result yet: report what was asked for.
    return {
      kind,
      status: 'IN_PROGRESS',
      language: language ?? null,
      error: null,
      errorCode: null,
      summary: null,
      emotions: null,
      translation: null,
      updatedAt: new Date().toISOString(),
      outdated: false,
    };
  }

  /** The server's result when it can be reached, else the cached one; null when never requested. */
  async get(id: string, kind: AnalysisKind, language?: string): Promise<AnalysisView | null> {
    const { store } = this.options;
    let found: CachedAnalysis | null;
    try {
      found = await this.fetch(id, kind, language ?? null);
    } catch (error) {
      if (!(error instanceof ApiError) || error.error.code !== 'offline') throw error;
      found = store.analyses.get(id, kind, language);
    }
    return found ? analysisView(found, store.outbox.hasEntriesFor(id)) : null;
  }

  /** What the transcript can be translated into; asked of the server each time (its engines can change). */
  async translationTargets(id: string): Promise<TranslationTargets> {
    const answer = await this.options.client.getTranslationTargets(id);
    return {
      source: answer.source_language,
      offline: answer.offline,
      llm: answer.llm,
      llmAnyLanguage: answer.llm_any_language,
    };
  }

  /** Reads a cached in-progress analysis again; true when it changed. */
  async refresh(analysis: CachedAnalysis): Promise<boolean> {
    const before = JSON.stringify(analysis.result);
    const after = await this.fetch(analysis.transcriptionId, analysis.kind, analysis.language);
    return after !== null && JSON.stringify(after.result) !== before;
  }

  private async fetch(id: string, kind: AnalysisKind, language: string | null): Promise<CachedAnalysis | null> {
    const { client, store } = this.options;
    let result: ApiAnalysisResult;
    try {
      result =
        kind === 'summary'
          ? await client.getSummary(id)
          : kind === 'emotion'
            ? await client.getEmotion(id)
            : await client.getTranslation(id, language ?? undefined);
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.error.code === 'not-found' &&
        error.errorCode !== ErrorCode.TRANSCRIPTION_NOT_FOUND
      )
        return null;
      throw error;
    }
    const resolvedLanguage = kind === 'translation' ? ((result as ApiTranslationResult).language ?? language) : null;
    if (!store.transcriptions.get(id)) return null; // not cached (yet): nothing to attach it to
    const changed = store.analyses.put(id, kind, resolvedLanguage, result);
    if (changed && result.status === 'COMPLETED') this.index(id, kind, result);
    if (changed) this.options.onChanged(id, kind, resolvedLanguage);
    return store.analyses.get(id, kind, resolvedLanguage);
  }

  private index(id: string, kind: AnalysisKind, result: ApiAnalysisResult) {
    const { store } = this.options;
    if (kind === 'summary') store.search.indexSummary(id, result as ApiSummaryResult);
    else if (kind === 'translation') {
      store.search.indexTranslations(
        id,
        store.analyses.completedTranslations(id).map((a) => a.result as ApiTranslationResult),
      );
    }
  }
}
