// The persisted upload queue.
import type { IpcError, UploadJob, UploadOptions, UploadState } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';

export interface UploadRecord extends UploadJob {
  options: UploadOptions;
  uploadUrl: string | null;
  uploadExpiresAt: string | null;
  updatedAt: string;
  /** The failed transcription this upload transcribes again, deleted once the new one has started (decision 0020). */
  replaces: string | null;
  /** The tus upload's URL on the server, while a resumable upload is under way (decision 0032). */
  resumeUrl: string | null;
}

interface Row {
  id: string;
  seq: number;
  file_path: string;
  file_name: string;
  size: number;
  sent_bytes: number;
  state: UploadState;
  options: string;
  transcription_id: string | null;
  upload_url: string | null;
  upload_expires_at: string | null;
  error: string | null;
  created_at: string;
  updated_at: string;
  replaces: string | null;
  resume_url: string | null;
  started_at: string | null;
}

const fromRow = (r: Row): UploadRecord => ({
  id: r.id,
  filePath: r.file_path,
  fileName: r.file_name,
  size: r.size,
  sentBytes: r.sent_bytes,
  state: r.state,
  transcriptionId: r.transcription_id,
  error: r.error ? (JSON.parse(r.error) as IpcError) : null,
  createdAt: r.created_at,
  options: JSON.parse(r.options) as UploadOptions,
  uploadUrl: r.upload_url,
  uploadExpiresAt: r.upload_expires_at,
  updatedAt: r.updated_at,
  replaces: r.replaces,
  resumeUrl: r.resume_url ?? null,
  startedAt: r.started_at ?? null,
});

/** The UploadJob the renderer sees (no ticket URL: it is a credential). */
export function uploadJobOf(r: UploadRecord): UploadJob {
  return {
    id: r.id,
    filePath: r.filePath,
    fileName: r.fileName,
    size: r.size,
    sentBytes: r.sentBytes,
    state: r.state,
    transcriptionId: r.transcriptionId,
    error: r.error,
    createdAt: r.createdAt,
    startedAt: r.startedAt,
  };
}

export type UploadPatch = Partial<
  Pick<
    UploadRecord,
    'sentBytes' | 'state' | 'transcriptionId' | 'uploadUrl' | 'uploadExpiresAt' | 'error' | 'resumeUrl' | 'startedAt'
  >
>;

const COLUMNS: Record<keyof UploadPatch, string> = {
  sentBytes: 'sent_bytes',
  state: 'state',
  transcriptionId: 'transcription_id',
  uploadUrl: 'upload_url',
  uploadExpiresAt: 'upload_expires_at',
  error: 'error',
  resumeUrl: 'resume_url',
  startedAt: 'started_at',
};

export class UploadRepository {
  constructor(private readonly db: CacheDb) {}

  insert(
    job: Pick<UploadRecord, 'id' | 'filePath' | 'fileName' | 'size' | 'options' | 'createdAt'> & {
      replaces?: string | null;
    },
  ): UploadRecord {
    const seq = ((this.db.prepare('SELECT max(seq) AS m FROM uploads').get() as { m: number | null }).m ?? 0) + 1;
    this.db
      .prepare(
        `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at, replaces)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?, ?)`,
      )
      .run(
        job.id,
        seq,
        job.filePath,
        job.fileName,
        job.size,
        JSON.stringify(job.options),
        job.createdAt,
        job.createdAt,
        job.replaces ?? null,
      );
    return this.get(job.id)!;
  }

  update(id: string, patch: UploadPatch): UploadRecord | null {
    const entries = Object.entries(patch) as Array<[keyof UploadPatch, unknown]>;
    if (entries.length > 0) {
      const sets = entries.map(([key]) => `${COLUMNS[key]} = ?`);
      const values = entries.map(([key, value]) => (key === 'error' ? (value ? JSON.stringify(value) : null) : value));
      this.db
        .prepare(`UPDATE uploads SET ${sets.join(', ')}, updated_at = ? WHERE id = ?`)
        .run(...values, new Date().toISOString(), id);
    }
    return this.get(id);
  }

  get(id: string): UploadRecord | null {
    const row = this.db.prepare('SELECT * FROM uploads WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  list(): UploadRecord[] {
    return (this.db.prepare('SELECT * FROM uploads ORDER BY seq').all() as Row[]).map(fromRow);
  }

  /** Jobs with work left, in queue order. */
  unfinished(): UploadRecord[] {
    return (
      this.db
        .prepare(`SELECT * FROM uploads WHERE state IN ('queued', 'uploading', 'starting') ORDER BY seq`)
        .all() as Row[]
    ).map(fromRow);
  }

  /** The upload that made transcription `transcriptionId` on this computer, if it is still listed. */
  byTranscription(transcriptionId: string): UploadRecord | null {
    const row = this.db
      .prepare('SELECT * FROM uploads WHERE transcription_id = ? ORDER BY seq DESC LIMIT 1')
      .get(transcriptionId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  /**
   * The options transcription `transcriptionId` now runs with: transcribing it again in place (decision 0062)
   * replaces the upload's, so that the next "Transcribe again…" starts from the latest choice.
   */
  setOptionsOf(transcriptionId: string, options: UploadOptions): void {
    this.db
      .prepare('UPDATE uploads SET options = ? WHERE seq = (SELECT MAX(seq) FROM uploads WHERE transcription_id = ?)')
      .run(JSON.stringify(options), transcriptionId);
  }

  /** Every upload of the file at `filePath`, oldest first. */
  byFilePath(filePath: string): UploadRecord[] {
    return (this.db.prepare('SELECT * FROM uploads WHERE file_path = ? ORDER BY seq').all(filePath) as Row[]).map(
      fromRow,
    );
  }

  /** A re-run of `transcriptionId` that is still waiting or running. */
  unfinishedReplacing(transcriptionId: string): UploadRecord | null {
    const row = this.db
      .prepare(
        `SELECT * FROM uploads WHERE replaces = ? AND state IN ('queued', 'uploading', 'starting') ORDER BY seq DESC LIMIT 1`,
      )
      .get(transcriptionId) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM uploads WHERE id = ?').run(id);
  }

  /** Forgets finished jobs (done, cancelled); answers how many. */
  deleteFinished(): number {
    return this.db.prepare(`DELETE FROM uploads WHERE state IN ('done', 'cancelled')`).run().changes;
  }
}
