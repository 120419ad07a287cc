// Summary, emotion and translation results as last read from the server.
import type { AnalysisStatus } from '../../src-shared/analysis.js';
import type { ApiEmotionResult, ApiSummaryResult, ApiTranslationResult } from '../../src-shared/api-types.js';
import type { AnalysisKind, AnalysisView } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';
import { knownFailureCode } from '../../src-shared/api/vocabulary.js';

export type ApiAnalysisResult = ApiSummaryResult | ApiEmotionResult | ApiTranslationResult;

export interface CachedAnalysis {
  transcriptionId: string;
  kind: AnalysisKind;
  /** Target language of a translation; null otherwise. */
  language: string | null;
  status: AnalysisStatus;
  result: ApiAnalysisResult;
  updatedAt: string;
}

interface Row {
  transcription_id: string;
  kind: AnalysisKind;
  language: string;
  status: AnalysisStatus;
  result: string | null;
  error: string | null;
  updated_at: string;
}

const fromRow = (r: Row): CachedAnalysis => ({
  transcriptionId: r.transcription_id,
  kind: r.kind,
  language: r.language || null,
  status: r.status,
  result: JSON.parse(r.result ?? '{}') as ApiAnalysisResult,
  updatedAt: r.updated_at,
});

/**
 * The renderer's view of an analysis result. `localEdits`: the transcript has edits on this computer
 * the server has not seen, so a finished result no longer matches what is shown, whatever it says.
 */
export function analysisView(a: CachedAnalysis, localEdits = false): AnalysisView {
  const completed = a.status === 'COMPLETED';
  const view: AnalysisView = {
    kind: a.kind,
    status: a.status,
    language: a.language,
    error: a.result.error ?? null,
    errorCode: knownFailureCode(a.result.error_code),
    summary: null,
    emotions: null,
    translation: null,
    updatedAt: a.updatedAt,
    outdated: completed && (a.result.outdated === true || localEdits),
  };
  if (!completed) return view;
  if (a.kind === 'summary') {
    const s = a.result as ApiSummaryResult;
    view.summary = {
      text: s.summarized_text,
      overview: s.overview ?? s.summarized_text,
      key_points: s.key_points ?? [],
      action_items: s.action_items ?? [],
      decisions: s.decisions ?? [],
      dates: s.dates ?? [],
    };
  } else if (a.kind === 'emotion') {
    view.emotions = (a.result as ApiEmotionResult).emotions ?? [];
  } else {
    const t = a.result as ApiTranslationResult;
    view.translation = {
      text: t.translated_text,
      language: t.language ?? a.language ?? '',
      segments: t.segments ?? [],
    };
  }
  return view;
}

export class AnalysisRepository {
  constructor(private readonly db: CacheDb) {}

  /** Stores a result body. Returns true when it differs from what was cached. */
  put(transcriptionId: string, kind: AnalysisKind, language: string | null, result: ApiAnalysisResult): boolean {
    const before = this.db
      .prepare('SELECT status, result FROM analyses WHERE transcription_id = ? AND kind = ? AND language = ?')
      .get(transcriptionId, kind, language ?? '') as { status: string; result: string } | undefined;
    const json = JSON.stringify(result);
    this.db
      .prepare(
        `INSERT INTO analyses (transcription_id, kind, language, status, result, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (transcription_id, kind, language) DO UPDATE SET status = excluded.status, result = excluded.result,
           error = excluded.error, updated_at = excluded.updated_at`,
      )
      .run(
        transcriptionId,
        kind,
        language ?? '',
        result.status,
        json,
        result.error ?? null,
        result.updated_at ?? new Date().toISOString(),
      );
    return !before || before.status !== result.status || before.result !== json;
  }

  /** For a translation without `language`: the most recently updated one. */
  get(transcriptionId: string, kind: AnalysisKind, language?: string | null): CachedAnalysis | null {
    const row = (
      kind === 'translation' && !language
        ? this.db
            .prepare(
              `SELECT * FROM analyses WHERE transcription_id = ? AND kind = 'translation' ORDER BY updated_at DESC LIMIT 1`,
            )
            .get(transcriptionId)
        : this.db
            .prepare('SELECT * FROM analyses WHERE transcription_id = ? AND kind = ? AND language = ?')
            .get(transcriptionId, kind, language ?? '')
    ) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /** Completed translations of a transcription, every target language. */
  completedTranslations(transcriptionId: string): CachedAnalysis[] {
    return (
      this.db
        .prepare(`SELECT * FROM analyses WHERE transcription_id = ? AND kind = 'translation' AND status = 'COMPLETED'`)
        .all(transcriptionId) as Row[]
    ).map(fromRow);
  }

  inProgress(): CachedAnalysis[] {
    return (this.db.prepare(`SELECT * FROM analyses WHERE status = 'IN_PROGRESS'`).all() as Row[]).map(fromRow);
  }
}
