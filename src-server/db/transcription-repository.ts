// Transcription records, with the uploading user's name joined in.
import type { Selectable } from 'kysely';
import { truncateWalAfterDelete } from './database.js';
import type { Kdb, TranscriptionTable } from './schema.js';
import type {
  TranscriptionModel,
  TranscriptionRecord,
  TranscriptionStage,
  TranscriptionStatus,
  UploadStatus,
} from '../domain/records.js';
import type { FailureCode } from '../../src-shared/api/vocabulary.js';

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
> &
  Partial<Pick<TranscriptionRecord, 'multichannel' | 'recognizeSpeakers'>>;

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
    | 'failureCode'
    | 'engine'
    | 'warnings'
  >
>;

/** The options a transcription is transcribed again with (decision 0062). */
export type AgainOptions = Pick<
  TranscriptionRecord,
  'languages' | 'transcriptionModel' | 'numSpeakers' | 'minSpeakers' | 'maxSpeakers' | 'dictionaryId'
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
   * Atomically moves a COMPLETED or FAILED transcription back to CONVERTING with new options (transcribe
   * again, decision 0062). False when it was not finished (already running again, cancelled, deleted).
   */
  beginAgain(transcriptionId: string, options: AgainOptions): Promise<boolean>;
  /**
   * Atomically moves a PENDING upload to COMPLETED. False when the upload was already completed or
   * the transcription is no longer waiting for audio: that is what makes an upload URL single-use.
   * It decides the winner of concurrent uploads; only then does the winner's object become the stored audio.
   */
  completeUpload(transcriptionId: string, audio: CommittedAudio): Promise<boolean>;
  /**
   * Tickets whose upload never arrived before expiry become CANCELLED, and the temporary dictionaries made
   * from their words go with them, in one transaction; returns their ids.
   */
  cancelExpiredUploads(nowIso: string): Promise<Array<{ transcriptionId: string; dictionaryId: string | null }>>;
  delete(teamId: string, transcriptionId: string): Promise<boolean>;
}

type Row = Selectable<TranscriptionTable> & { user_name: string | null };

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
  multichannel: r.multichannel === 1,
  recognizeSpeakers: r.recognize_speakers !== 0,
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
  failureCode: (r.failure_code ?? null) as FailureCode | null,
  engine: r.engine,
  warnings: r.warnings ? (JSON.parse(r.warnings) as TranscriptionRecord['warnings']) : [],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const PATCH_COLUMNS = {
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
  failureCode: 'failure_code',
  engine: 'engine',
  warnings: 'warnings',
} as const satisfies Record<keyof TranscriptionPatch, keyof TranscriptionTable>;

export class KyselyTranscriptionRepository implements TranscriptionRepository {
  constructor(private readonly db: Kdb) {}

  /** Transcriptions with the uploading user's name joined in. */
  private select() {
    return this.db
      .selectFrom('transcriptions as t')
      .leftJoin('users as u', (join) => join.onRef('u.team_id', '=', 't.team_id').onRef('u.user_id', '=', 't.user_id'))
      .selectAll('t')
      .select('u.name as user_name');
  }

  async create(input: NewTranscription) {
    await this.db
      .insertInto('transcriptions')
      .values({
        transcription_id: input.transcriptionId,
        team_id: input.teamId,
        user_id: input.userId,
        dictionary_id: input.dictionaryId,
        name: input.name,
        languages: JSON.stringify(input.languages),
        transcription_model: input.transcriptionModel,
        num_speakers: input.numSpeakers,
        min_speakers: input.minSpeakers,
        max_speakers: input.maxSpeakers,
        multichannel: input.multichannel ? 1 : 0,
        recognize_speakers: input.recognizeSpeakers === false ? 0 : 1,
        status: 'IN_PROGRESS',
        upload_status: 'PENDING',
        upload_expires_at: input.uploadExpiresAt,
        created_at: input.createdAt,
        updated_at: input.createdAt,
      })
      .execute();
  }

  async get(teamId: string, transcriptionId: string) {
    const record = await this.getById(transcriptionId);
    return record && record.teamId === teamId ? record : null;
  }

  async getById(transcriptionId: string) {
    const row = await this.select().where('t.transcription_id', '=', transcriptionId).executeTakeFirst();
    return row ? toRecord(row) : null;
  }

  async list(teamId: string, page: number, pageSize: number) {
    const rows = await this.select()
      .where('t.team_id', '=', teamId)
      .orderBy('t.rowid', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return rows.map(toRecord);
  }

  async listVersion(teamId: string) {
    const row = await this.db
      .selectFrom('teams')
      .select('list_version')
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    return row?.list_version ?? 0;
  }

  async update(transcriptionId: string, patch: TranscriptionPatch) {
    const entries = Object.entries(patch) as Array<[keyof TranscriptionPatch, unknown]>;
    if (entries.length === 0) return;
    const values = Object.fromEntries(
      entries.map(([key, value]) => [
        PATCH_COLUMNS[key],
        key === 'languages' || key === 'warnings' ? JSON.stringify(value) : value,
      ]),
    );
    await this.db
      .updateTable('transcriptions')
      .set({ ...values, updated_at: new Date().toISOString() })
      .where('transcription_id', '=', transcriptionId)
      .execute();
  }

  async beginAgain(transcriptionId: string, options: AgainOptions) {
    // One conditional UPDATE: of two concurrent requests to transcribe again, exactly one moves the row.
    const result = await this.db
      .updateTable('transcriptions')
      .set({
        status: 'CONVERTING',
        progress: 0,
        failure_reason: null,
        stage: null,
        // The old result's warnings do not hold for the new one (decision 0070).
        warnings: null,
        languages: JSON.stringify(options.languages),
        transcription_model: options.transcriptionModel,
        num_speakers: options.numSpeakers,
        min_speakers: options.minSpeakers,
        max_speakers: options.maxSpeakers,
        dictionary_id: options.dictionaryId,
        updated_at: new Date().toISOString(),
      })
      .where('transcription_id', '=', transcriptionId)
      .where('status', 'in', ['COMPLETED', 'FAILED'])
      .where('upload_status', '=', 'COMPLETED')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async completeUpload(transcriptionId: string, audio: CommittedAudio) {
    // One conditional UPDATE: of two concurrent uploads to one URL, exactly one sees a changed row.
    const result = await this.db
      .updateTable('transcriptions')
      .set({
        upload_status: 'COMPLETED',
        audio_key: audio.audioKey,
        audio_size: audio.audioSize,
        audio_content_type: audio.audioContentType,
        audio_sha256: audio.audioSha256,
        updated_at: new Date().toISOString(),
      })
      .where('transcription_id', '=', transcriptionId)
      .where('upload_status', '=', 'PENDING')
      .where('status', '=', 'IN_PROGRESS')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async cancelExpiredUploads(now: string) {
    return this.db.transaction().execute(async (trx) => {
      // One UPDATE ... RETURNING: only rows this statement moved to CANCELLED come back, whoever else sweeps.
      const cancelled = await trx
        .updateTable('transcriptions')
        .set({
          status: 'CANCELLED',
          failure_reason: 'The audio was never uploaded before the upload URL expired.',
          failure_code: 'upload-expired' satisfies FailureCode,
          updated_at: now,
        })
        .where('upload_status', '=', 'PENDING')
        .where('status', '=', 'IN_PROGRESS')
        .where('upload_expires_at', '<=', now)
        .returning(['transcription_id', 'team_id', 'dictionary_id'])
        .execute();
      // In the same transaction: whoever sees the ticket CANCELLED no longer finds its temporary dictionary.
      for (const { team_id, dictionary_id } of cancelled) {
        if (dictionary_id === null) continue;
        await trx
          .deleteFrom('dictionaries')
          .where('team_id', '=', team_id)
          .where('dictionary_id', '=', dictionary_id)
          .where('is_temporary', '=', 1)
          .execute();
      }
      return cancelled.map((r) => ({ transcriptionId: r.transcription_id, dictionaryId: r.dictionary_id }));
    });
  }

  async delete(teamId: string, transcriptionId: string) {
    const result = await this.db
      .deleteFrom('transcriptions')
      .where('team_id', '=', teamId)
      .where('transcription_id', '=', transcriptionId)
      .executeTakeFirst();
    // Its review and analyses went with it (ON DELETE CASCADE).
    if (result.numDeletedRows > 0n) await truncateWalAfterDelete(this.db);
    return result.numDeletedRows > 0n;
  }
}
