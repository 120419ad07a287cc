// Transcription records, with the uploading user's name joined in.
import type { Db } from './database.js';
import type { TranscriptionModel, TranscriptionRecord, TranscriptionStage, TranscriptionStatus, UploadStatus } from '../domain/records.js';

export type NewTranscription = Pick<
  TranscriptionRecord,
  | 'transcriptionId'
  | 'teamId'
  | 'userId'
  | 'dictionaryId'
  | 'name'
  | 'languages'
  | 'transcriptionModel'
  | 'numSpeakers'
  | 'minSpeakers'
  | 'maxSpeakers'
  | 'uploadExpiresAt'
  | 'createdAt'
>;

export type TranscriptionPatch = Partial<
  Pick<
    TranscriptionRecord,
    | 'status'
    | 'languages'
    | 'uploadStatus'
    | 'audioKey'
    | 'audioSize'
    | 'audioContentType'
    | 'transcriptKey'
    | 'duration'
    | 'speakingDuration'
    | 'progress'
    | 'processingStartedAt'
    | 'stage'
    | 'failureReason'
    | 'engine'
  >
>;

/** What an upload stored, as its commit records it. */
export interface CommittedAudio {
  audioKey: string;
  audioSize: number;
  audioContentType: string;
  /** Null when the bytes went straight to object storage (a presigned PUT): the server never read them. */
  audioSha256: string | null;
}

export interface TranscriptionRepository {
  create(input: NewTranscription): Promise<void>;
  get(teamId: string, transcriptionId: string): Promise<TranscriptionRecord | null>;
  /** Unscoped: for jobs and signed URLs, which carry no caller. */
  getById(transcriptionId: string): Promise<TranscriptionRecord | null>;
  list(teamId: string, page: number, pageSize: number): Promise<TranscriptionRecord[]>;
  /** A number that changes whenever anything a list of this team's transcriptions shows changes. */
  listVersion(teamId: string): Promise<number>;
  update(transcriptionId: string, patch: TranscriptionPatch): Promise<void>;
  /**
   * Atomically moves a PENDING upload to COMPLETED. False when the upload was already completed or
   * the transcription is no longer waiting for audio: that is what makes an upload URL single-use.
   * It decides the winner of concurrent uploads; only then does the winner's object become the stored audio.
   */
  completeUpload(transcriptionId: string, audio: CommittedAudio): Promise<boolean>;
  /** Tickets whose upload never arrived before expiry become CANCELLED; returns their ids. */
  cancelExpiredUploads(nowIso: string): Promise<Array<{ transcriptionId: string; dictionaryId: string | null }>>;
  delete(teamId: string, transcriptionId: string): Promise<boolean>;
}

interface Row {
  transcription_id: string;
  team_id: string;
  user_id: string;
  user_name: string | null;
  dictionary_id: string | null;
  name: string;
  languages: string;
  transcription_model: string;
  num_speakers: number | null;
  min_speakers: number | null;
  max_speakers: number | null;
  status: string;
  upload_status: string;
  upload_expires_at: string;
  audio_key: string | null;
  audio_size: number | null;
  audio_content_type: string | null;
  audio_sha256: string | null;
  transcript_key: string | null;
  duration: number | null;
  speaking_duration: number | null;
  progress: number | null;
  processing_started_at: string | null;
  stage: string | null;
  failure_reason: string | null;
  engine: string | null;
  created_at: string;
  updated_at: string;
}

const toRecord = (r: Row): TranscriptionRecord => ({
  transcriptionId: r.transcription_id,
  teamId: r.team_id,
  userId: r.user_id,
  userName: r.user_name ?? r.user_id,
  dictionaryId: r.dictionary_id,
  name: r.name,
  languages: JSON.parse(r.languages) as string[],
  transcriptionModel: r.transcription_model as TranscriptionModel,
  numSpeakers: r.num_speakers,
  minSpeakers: r.min_speakers,
  maxSpeakers: r.max_speakers,
  status: r.status as TranscriptionStatus,
  uploadStatus: r.upload_status as UploadStatus,
  uploadExpiresAt: r.upload_expires_at,
  audioKey: r.audio_key,
  audioSize: r.audio_size,
  audioContentType: r.audio_content_type,
  audioSha256: r.audio_sha256 ?? null,
  transcriptKey: r.transcript_key,
  duration: r.duration,
  speakingDuration: r.speaking_duration,
  progress: r.progress,
  processingStartedAt: r.processing_started_at,
  stage: r.stage as TranscriptionStage | null,
  failureReason: r.failure_reason,
  engine: r.engine,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SELECT = `SELECT t.*, u.name AS user_name FROM transcriptions t
  LEFT JOIN users u ON u.team_id = t.team_id AND u.user_id = t.user_id`;

const PATCH_COLUMNS: Record<keyof TranscriptionPatch, string> = {
  status: 'status',
  languages: 'languages',
  uploadStatus: 'upload_status',
  audioKey: 'audio_key',
  audioSize: 'audio_size',
  audioContentType: 'audio_content_type',
  transcriptKey: 'transcript_key',
  duration: 'duration',
  speakingDuration: 'speaking_duration',
  progress: 'progress',
  processingStartedAt: 'processing_started_at',
  stage: 'stage',
  failureReason: 'failure_reason',
  engine: 'engine',
};

export class SqliteTranscriptionRepository implements TranscriptionRepository {
  private readonly listStatement;
  private readonly getStatement;
  private readonly versionStatement;

  constructor(private readonly db: Db) {
    this.listStatement = db.prepare(`${SELECT} WHERE t.team_id = ? ORDER BY t.rowid DESC LIMIT ? OFFSET ?`);
    this.getStatement = db.prepare(`${SELECT} WHERE t.transcription_id = ?`);
    this.versionStatement = db.prepare('SELECT list_version FROM teams WHERE team_id = ?').pluck();
  }

  async create(input: NewTranscription) {
    this.db
      .prepare(
        `INSERT INTO transcriptions (transcription_id, team_id, user_id, dictionary_id, name, languages, transcription_model,
           num_speakers, min_speakers, max_speakers, status, upload_status, upload_expires_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'IN_PROGRESS', 'PENDING', ?, ?, ?)`,
      )
      .run(
        input.transcriptionId,
        input.teamId,
        input.userId,
        input.dictionaryId,
        input.name,
        JSON.stringify(input.languages),
        input.transcriptionModel,
        input.numSpeakers,
        input.minSpeakers,
        input.maxSpeakers,
        input.uploadExpiresAt,
        input.createdAt,
        input.createdAt,
      );
  }

  async get(teamId: string, transcriptionId: string) {
    const record = await this.getById(transcriptionId);
    return record && record.teamId === teamId ? record : null;
  }

  async getById(transcriptionId: string) {
    const row = this.getStatement.get(transcriptionId) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  async list(teamId: string, page: number, pageSize: number) {
    return (this.listStatement.all(teamId, pageSize, (page - 1) * pageSize) as Row[]).map(toRecord);
  }

  async listVersion(teamId: string) {
    return (this.versionStatement.get(teamId) as number | undefined) ?? 0;
  }

  async update(transcriptionId: string, patch: TranscriptionPatch) {
    const entries = Object.entries(patch) as Array<[keyof TranscriptionPatch, unknown]>;
    if (entries.length === 0) return;
    const sets = entries.map(([key]) => `${PATCH_COLUMNS[key]} = ?`).join(', ');
    this.db
      .prepare(`UPDATE transcriptions SET ${sets}, updated_at = ? WHERE transcription_id = ?`)
      .run(...entries.map(([key, value]) => (key === 'languages' ? JSON.stringify(value) : value)), new Date().toISOString(), transcriptionId);
  }

  async completeUpload(transcriptionId: string, audio: CommittedAudio) {
    const result = this.db
      .prepare(
        `UPDATE transcriptions SET upload_status = 'COMPLETED', audio_key = ?, audio_size = ?, audio_content_type = ?, audio_sha256 = ?, updated_at = ?
         WHERE transcription_id = ? AND upload_status = 'PENDING' AND status = 'IN_PROGRESS'`,
      )
      .run(audio.audioKey, audio.audioSize, audio.audioContentType, audio.audioSha256, new Date().toISOString(), transcriptionId);
    return result.changes > 0;
  }

  async cancelExpiredUploads(now: string) {
    return this.db.transaction(() => {
      const expired = this.db
        .prepare(
          `SELECT transcription_id, dictionary_id FROM transcriptions
           WHERE upload_status = 'PENDING' AND status = 'IN_PROGRESS' AND upload_expires_at <= ?`,
        )
        .all(now) as Array<{ transcription_id: string; dictionary_id: string | null }>;
      const cancel = this.db.prepare(
        `UPDATE transcriptions SET status = 'CANCELLED', failure_reason = ?, updated_at = ? WHERE transcription_id = ?`,
      );
      for (const row of expired) {
        cancel.run('The audio was never uploaded before the upload URL expired.', now, row.transcription_id);
      }
      return expired.map((r) => ({ transcriptionId: r.transcription_id, dictionaryId: r.dictionary_id }));
    })();
  }

  async delete(teamId: string, transcriptionId: string) {
    return this.db.prepare('DELETE FROM transcriptions WHERE team_id = ? AND transcription_id = ?').run(teamId, transcriptionId).changes > 0;
  }
}
