// Analysis results per transcription: the latest of each kind (and of each translation language).
import type { Selectable } from 'kysely';
import type { AnalysisTable, Kdb } from './schema.js';
import { nowIso } from '../domain/records.js';
import type { AnalysisStatus } from '../../src-shared/analysis.js';
import type { FailureCode } from '../../src-shared/api/vocabulary.js';

export type AnalysisKind = 'summary' | 'emotion' | 'translation';

export interface AnalysisRecord {
  transcriptionId: string;
  kind: AnalysisKind;
  language: string;
  status: AnalysisStatus;
  result: unknown;
  error: string | null;
  /** Why it FAILED as a closed code; null otherwise, and for failures before codes were kept. */
  errorCode: FailureCode | null;
  engine: string | null;
  /** The transcript revision it was computed from; null before revisions were kept, and while it runs. */
  revision: number | null;
  createdAt: string;
  updatedAt: string;
}

export interface AnalysisRepository {
  /** Marks the analysis IN_PROGRESS (creating it if new), clearing any earlier result. */
  begin(transcriptionId: string, kind: AnalysisKind, language: string): Promise<void>;
  complete(
    transcriptionId: string,
    kind: AnalysisKind,
    language: string,
    result: unknown,
    engine: string,
    revision?: number,
  ): Promise<void>;
  fail(transcriptionId: string, kind: AnalysisKind, language: string, error: string, code: FailureCode): Promise<void>;
  /** With language undefined for a translation: the most recently requested one. */
  get(transcriptionId: string, kind: AnalysisKind, language?: string): Promise<AnalysisRecord | null>;
}

const toRecord = (r: Selectable<AnalysisTable>): AnalysisRecord => ({
  transcriptionId: r.transcription_id,
  kind: r.kind as AnalysisKind,
  language: r.language,
  status: r.status as AnalysisStatus,
  result: r.result === null ? null : JSON.parse(r.result),
  error: r.error,
  errorCode: (r.error_code ?? null) as FailureCode | null,
  engine: r.engine,
  revision: r.revision === null ? null : Number(r.revision),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class KyselyAnalysisRepository implements AnalysisRepository {
  constructor(private readonly db: Kdb) {}

  async begin(transcriptionId: string, kind: AnalysisKind, language: string) {
    const now = nowIso();
    await this.db
      .insertInto('analyses')
      .values({
        transcription_id: transcriptionId,
        kind,
        language,
        status: 'IN_PROGRESS',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['transcription_id', 'kind', 'language']).doUpdateSet((eb) => ({
          status: 'IN_PROGRESS',
          result: null,
          error: null,
          engine: null,
          revision: null,
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }

  async complete(
    transcriptionId: string,
    kind: AnalysisKind,
    language: string,
    result: unknown,
    engine: string,
    revision?: number,
  ) {
    await this.db
      .updateTable('analyses')
      .set({
        status: 'COMPLETED',
        result: JSON.stringify(result),
        engine,
        error: null,
        revision: revision ?? null,
        updated_at: nowIso(),
      })
      .where('transcription_id', '=', transcriptionId)
      .where('kind', '=', kind)
      .where('language', '=', language)
      .execute();
  }

  async fail(transcriptionId: string, kind: AnalysisKind, language: string, error: string, code: FailureCode) {
    await this.db
      .updateTable('analyses')
      .set({ status: 'FAILED', error, error_code: code, updated_at: nowIso() })
      .where('transcription_id', '=', transcriptionId)
      .where('kind', '=', kind)
      .where('language', '=', language)
      .execute();
  }

  async get(transcriptionId: string, kind: AnalysisKind, language?: string) {
    const query = this.db
      .selectFrom('analyses')
      .selectAll()
      .where('transcription_id', '=', transcriptionId)
      .where('kind', '=', kind);
    const row = await (
      language === undefined
        ? query.orderBy('created_at', 'desc').orderBy('rowid', 'desc').limit(1)
        : query.where('language', '=', language)
    ).executeTakeFirst();
    return row ? toRecord(row) : null;
  }
}
