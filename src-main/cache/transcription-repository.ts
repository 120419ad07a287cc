// Transcription records as last seen on the server.
import type { ApiTranscription } from '../../src-shared/api-types.js';
import {
  isProcessing,
  knownFailureCode,
  TRANSCRIPTION_WARNING_CODES,
  type FailureCode,
} from '../../src-shared/api/vocabulary.js';
import {
  TRANSCRIPTION_STAGES,
  type TranscriptionStage,
  type TranscriptionStatus,
  type TranscriptWarning,
} from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';

export interface CachedTranscription {
  id: string;
  name: string;
  status: TranscriptionStatus;
  uploadStatus: 'PENDING' | 'COMPLETED' | null;
  progress: number | null;
  processingStartedAt: string | null;
  stage: TranscriptionStage | null;
  duration: number | null;
  speakingDuration: number | null;
  languages: string[];
  model: string;
  dictionaryId: string | null;
  userName: string | null;
  failureReason: string | null;
  warnings: TranscriptWarning[];
  failureCode: FailureCode | null;
  numSpeakers: number | null;
  audioPath: string | null;
  transcriptionPath: string | null;
  createdAt: string;
  updatedAt: string;
  syncedAt: string;
}

interface Row {
  id: string;
  name: string;
  status: TranscriptionStatus;
  upload_status: 'PENDING' | 'COMPLETED' | null;
  progress: number | null;
  processing_started_at: string | null;
  stage: string | null;
  duration: number | null;
  speaking_duration: number | null;
  languages: string;
  model: string;
  dictionary_id: string | null;
  user_name: string | null;
  failure_reason: string | null;
  warnings: string | null;
  failure_code: string | null;
  num_speakers: number | null;
  audio_path: string | null;
  transcription_path: string | null;
  created_at: string;
  updated_at: string;
  synced_at: string;
}

const fromRow = (r: Row): CachedTranscription => ({
  id: r.id,
  name: r.name,
  status: r.status,
  uploadStatus: r.upload_status,
  progress: r.progress,
  processingStartedAt: r.processing_started_at,
  stage: knownStage(r.stage),
  duration: r.duration,
  speakingDuration: r.speaking_duration,
  languages: JSON.parse(r.languages) as string[],
  model: r.model,
  dictionaryId: r.dictionary_id,
  userName: r.user_name,
  failureReason: r.failure_reason,
  warnings: r.warnings ? (JSON.parse(r.warnings) as TranscriptWarning[]) : [],
  failureCode: knownFailureCode(r.failure_code),
  numSpeakers: r.num_speakers,
  audioPath: r.audio_path,
  transcriptionPath: r.transcription_path,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  syncedAt: r.synced_at,
});

/** A stage this app knows how to name; a newer server's other stages read as none. */
function knownStage(stage: string | null | undefined): TranscriptionStage | null {
  return (TRANSCRIPTION_STAGES as readonly string[]).includes(stage ?? '') ? (stage as TranscriptionStage) : null;
}

/** The warnings this app knows how to say (a newer server's other codes are left out), as cached. */
function knownWarnings(warnings: ApiTranscription['warnings']): TranscriptWarning[] {
  return (warnings ?? []).flatMap((w) =>
    (TRANSCRIPTION_WARNING_CODES as readonly string[]).includes(w.code)
      ? [{ code: w.code, likelyLanguage: typeof w.likely_language === 'string' ? w.likely_language : null }]
      : [],
  );
}

/** What a sync changed for one record. */
export interface TranscriptionChange {
  id: string;
  /** Null when the record was new to the cache. */
  previousStatus: TranscriptionStatus | null;
  status: TranscriptionStatus;
  /** False when only the signed URLs were refreshed. */
  changed: boolean;
}

export interface TranscriptionQuery {
  statuses?: TranscriptionStatus[];
  language?: string;
  /** Restrict to these ids (e.g. full-text hits); an empty array matches nothing. */
  ids?: string[];
  /** Case-insensitive substring of the name, OR-ed with `ids` when both are given. */
  nameContains?: string;
  offset?: number;
  limit?: number;
}

export class TranscriptionRepository {
  constructor(private readonly db: CacheDb) {}

  /** Inserts or updates from a server body. Never REPLACE: that would cascade-delete documents and edits. */
  upsertFromApi(t: ApiTranscription, syncedAt = new Date().toISOString()): TranscriptionChange {
    const before = this.get(t.transcription_id);
    // An answer older than what is cached never takes it back: a list page the server kept from a moment
    // before a change (decision 0039) can arrive after the changed record itself, and would show, say, a
    // running transcription as queued again.
    if (before && Date.parse(t.updated_at) < Date.parse(before.updatedAt)) {
      return { id: before.id, previousStatus: before.status, status: before.status, changed: false };
    }
    const row = {
      id: t.transcription_id,
      name: t.name,
      status: t.status,
      upload_status: t.upload_status ?? null,
      progress: isProcessing(t.status) ? (t.progress ?? null) : null,
      processing_started_at: t.processing_started_at ?? null,
      stage: isProcessing(t.status) ? knownStage(t.stage) : null,
      duration: t.duration ?? null,
      speaking_duration: t.speaking_duration ?? null,
      languages: JSON.stringify(t.language ?? []),
      model: t.transcription_model ?? 'default',
      dictionary_id: t.dictionary_id ?? null,
      user_name: t.user?.name ?? null,
      failure_reason: t.failure_reason ?? null,
      warnings: ((w) => (w.length > 0 ? JSON.stringify(w) : null))(knownWarnings(t.warnings)),
      failure_code: knownFailureCode(t.failure_code),
      num_speakers: t.num_speakers ?? null,
      audio_path: t.audio_path ?? null,
      transcription_path: t.transcription_path ?? null,
      created_at: t.created_at,
      updated_at: t.updated_at,
      synced_at: syncedAt,
    };
    this.db
      .prepare(
        `INSERT INTO transcriptions (id, name, status, upload_status, progress, processing_started_at, stage, duration, speaking_duration, languages, model,
           dictionary_id, user_name, failure_reason, failure_code, warnings, num_speakers, audio_path, transcription_path, created_at, updated_at, synced_at)
         VALUES (@id, @name, @status, @upload_status, @progress, @processing_started_at, @stage, @duration, @speaking_duration, @languages, @model,
           @dictionary_id, @user_name, @failure_reason, @failure_code, @warnings, @num_speakers, @audio_path, @transcription_path, @created_at, @updated_at, @synced_at)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, status = excluded.status, upload_status = excluded.upload_status,
           progress = excluded.progress, processing_started_at = excluded.processing_started_at, stage = excluded.stage, duration = excluded.duration, speaking_duration = excluded.speaking_duration,
           languages = excluded.languages, model = excluded.model, dictionary_id = excluded.dictionary_id,
           user_name = excluded.user_name, failure_reason = excluded.failure_reason, failure_code = excluded.failure_code, warnings = excluded.warnings, num_speakers = excluded.num_speakers,
           audio_path = excluded.audio_path, transcription_path = excluded.transcription_path,
           created_at = excluded.created_at, updated_at = excluded.updated_at, synced_at = excluded.synced_at`,
      )
      .run(row);
    const changed =
      !before ||
      before.status !== row.status ||
      before.updatedAt !== row.updated_at ||
      before.progress !== row.progress ||
      before.stage !== row.stage ||
      before.processingStartedAt !== row.processing_started_at ||
      before.name !== row.name ||
      before.uploadStatus !== row.upload_status ||
      JSON.stringify(before.warnings) !== (row.warnings ?? '[]') ||
      (before.transcriptionPath === null) !== (row.transcription_path === null);
    return { id: row.id, previousStatus: before?.status ?? null, status: row.status, changed };
  }

  upsertManyFromApi(list: ApiTranscription[]): TranscriptionChange[] {
    const syncedAt = new Date().toISOString();
    return this.db.transaction(() => list.map((t) => this.upsertFromApi(t, syncedAt)))();
  }

  get(id: string): CachedTranscription | null {
    const row = this.db.prepare('SELECT * FROM transcriptions WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  list(query: TranscriptionQuery = {}): { items: CachedTranscription[]; total: number } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.statuses?.length) {
      where.push(`status IN (${query.statuses.map(() => '?').join(', ')})`);
      params.push(...query.statuses);
    }
    if (query.language) {
      where.push('EXISTS (SELECT 1 FROM json_each(transcriptions.languages) WHERE value = ?)');
      params.push(query.language.toLowerCase());
    }
    const textClauses: string[] = [];
    if (query.ids) {
      textClauses.push(`id IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(query.ids));
    }
    if (query.nameContains) {
      textClauses.push(`instr(lower(name), lower(?)) > 0`);
      params.push(query.nameContains);
    }
    if (textClauses.length) where.push(`(${textClauses.join(' OR ')})`);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (
      this.db.prepare(`SELECT count(*) AS n FROM transcriptions ${clause}`).get(...params) as { n: number }
    ).n;
    const rows = this.db
      .prepare(`SELECT * FROM transcriptions ${clause} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...params, query.limit ?? 100, query.offset ?? 0) as Row[];
    return { items: rows.map(fromRow), total };
  }

  /** Ids of transcriptions the server is converting or transcribing. */
  processingIds(): string[] {
    return (
      this.db
        .prepare(
          `SELECT id FROM transcriptions
           WHERE status = 'CONVERTING' OR (status = 'IN_PROGRESS' AND coalesce(upload_status, '') <> 'PENDING')
           ORDER BY created_at DESC`,
        )
        .all() as Array<{ id: string }>
    ).map((r) => r.id);
  }

  allIds(): string[] {
    return (this.db.prepare('SELECT id FROM transcriptions').all() as Array<{ id: string }>).map((r) => r.id);
  }

  /** COMPLETED transcriptions whose document is not cached yet, newest first. */
  completedWithoutDocument(limit: number): string[] {
    return (
      this.db
        .prepare(
          `SELECT t.id FROM transcriptions t LEFT JOIN transcript_documents d ON d.transcription_id = t.id
           WHERE t.status = 'COMPLETED' AND d.transcription_id IS NULL ORDER BY t.created_at DESC LIMIT ?`,
        )
        .all(limit) as Array<{ id: string }>
    ).map((r) => r.id);
  }

  /** Removes the record and, by cascade, its document, analyses and edits. */
  delete(id: string): void {
    this.db.prepare('DELETE FROM transcriptions WHERE id = ?').run(id);
  }
}
