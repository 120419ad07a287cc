// Analysis results per transcription: the latest of each kind (and of each translation language).
import type { Db } from './database.js';
import { nowIso } from '../domain/records.js';
import type { AnalysisStatus } from '../../src-shared/analysis.js';

export type AnalysisKind = 'summary' | 'emotion' | 'translation';

export interface AnalysisRecord {
  transcriptionId: string;
  kind: AnalysisKind;
  language: string;
  status: AnalysisStatus;
  result: unknown;
  error: string | null;
  engine: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AnalysisRepository {
  /** Marks the analysis IN_PROGRESS (creating it if new), clearing any earlier result. */
  begin(transcriptionId: string, kind: AnalysisKind, language: string): Promise<void>;
  complete(transcriptionId: string, kind: AnalysisKind, language: string, result: unknown, engine: string): Promise<void>;
  fail(transcriptionId: string, kind: AnalysisKind, language: string, error: string): Promise<void>;
  /** With language undefined for a translation: the most recently requested one. */
  get(transcriptionId: string, kind: AnalysisKind, language?: string): Promise<AnalysisRecord | null>;
}

interface Row {
  transcription_id: string;
  kind: string;
  language: string;
  status: string;
  result: string | null;
  error: string | null;
  engine: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (r: Row): AnalysisRecord => ({
  transcriptionId: r.transcription_id,
  kind: r.kind as AnalysisKind,
  language: r.language,
  status: r.status as AnalysisStatus,
  result: r.result === null ? null : JSON.parse(r.result),
  error: r.error,
  engine: r.engine,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqliteAnalysisRepository implements AnalysisRepository {
  constructor(private readonly db: Db) {}

  async begin(transcriptionId: string, kind: AnalysisKind, language: string) {
    const now = nowIso();
    this.db
      .prepare(
        `INSERT INTO analyses (transcription_id, kind, language, status, created_at, updated_at) VALUES (?, ?, ?, 'IN_PROGRESS', ?, ?)
         ON CONFLICT (transcription_id, kind, language) DO UPDATE
           SET status = 'IN_PROGRESS', result = NULL, error = NULL, engine = NULL, created_at = excluded.created_at, updated_at = excluded.updated_at`,
      )
      .run(transcriptionId, kind, language, now, now);
  }

  async complete(transcriptionId: string, kind: AnalysisKind, language: string, result: unknown, engine: string) {
    this.db
      .prepare(
        `UPDATE analyses SET status = 'COMPLETED', result = ?, engine = ?, error = NULL, updated_at = ?
         WHERE transcription_id = ? AND kind = ? AND language = ?`,
      )
      .run(JSON.stringify(result), engine, nowIso(), transcriptionId, kind, language);
  }

  async fail(transcriptionId: string, kind: AnalysisKind, language: string, error: string) {
    this.db
      .prepare(`UPDATE analyses SET status = 'FAILED', error = ?, updated_at = ? WHERE transcription_id = ? AND kind = ? AND language = ?`)
      .run(error, nowIso(), transcriptionId, kind, language);
  }

  async get(transcriptionId: string, kind: AnalysisKind, language?: string) {
    const row = (
      language === undefined
        ? this.db
            .prepare('SELECT * FROM analyses WHERE transcription_id = ? AND kind = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
            .get(transcriptionId, kind)
        : this.db.prepare('SELECT * FROM analyses WHERE transcription_id = ? AND kind = ? AND language = ?').get(transcriptionId, kind, language)
    ) as Row | undefined;
    return row ? toRecord(row) : null;
  }
}
