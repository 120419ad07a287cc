// Uploads that go straight to object storage through a presigned PUT (S3 mode, decision 0030). The
// store cannot enforce our size limit, quota or single use on a presigned PUT, so nothing the client
// PUT counts until POST .../transcribe commits it here: the upload object is copied to a key only the
// server writes, the copy is checked, and the ticket's completeUpload runs once. A later PUT to the
// same URL only rewrites the upload object, which nothing reads any more.
import { randomUUID } from 'node:crypto';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import type { StorageUsageRepository } from '../db/storage-usage-repository.js';
import type { PresigningStorage } from '../storage/presigning.js';
import type { TranscriptionRecord } from './records.js';
import { teamQuotaBytes } from './team-quota.js';

/** Where the client's presigned PUT lands: outside audio/, so a bucket lifecycle rule can expire leftovers. */
export const uploadKey = (id: string) => `uploads/${id}`;

export type CommitOutcome =
  /** Committed now, or already committed (or ended): the record as it now stands. */
  | { kind: 'ready'; record: TranscriptionRecord }
  | { kind: 'missing' }
  | { kind: 'empty' }
  | { kind: 'too-large'; limit: number; size: number }
  | { kind: 'over-quota'; quota: number; used: number; size: number };

export interface DirectUploadLimits {
  maxBytes: number;
  teamQuotaBytes: number | undefined;
}

export class DirectUploads {
  constructor(
    private readonly storage: PresigningStorage,
    private readonly transcriptions: TranscriptionRepository,
    private readonly usage: StorageUsageRepository,
    private readonly limits: DirectUploadLimits,
    private readonly contentTypeOf: (record: TranscriptionRecord, sent: string | null) => string,
  ) {}

  uploadUrl(record: TranscriptionRecord, ttlSeconds: number): Promise<string> {
    return this.storage.presignPut(uploadKey(record.transcriptionId), ttlSeconds);
  }

  /** Turns the object a client PUT into the transcription's audio, exactly once. */
  async commit(record: TranscriptionRecord): Promise<CommitOutcome> {
    if (record.uploadStatus === 'COMPLETED' || record.status !== 'IN_PROGRESS') return { kind: 'ready', record };
    const id = record.transcriptionId;
    // A fresh key per attempt: two concurrent commits never write the same object, and the loser's copy
    // is simply removed.
    const finalKey = `audio/${id}/${randomUUID()}`;
    if (!(await this.storage.copy(uploadKey(id), finalKey))) return { kind: 'missing' };
    // Checked on the copy, which no client can change any more.
    const stat = await this.storage.stat(finalKey);
    if (!stat) return { kind: 'missing' };
    const refusal = await this.check(record.teamId, stat.size);
    if (refusal) {
      // Refused: the ticket stays open, so the client may PUT a smaller file to the same URL.
      await this.storage.delete(finalKey);
      await this.storage.delete(uploadKey(id));
      return refusal;
    }
    const accepted = await this.transcriptions.completeUpload(id, {
      audioKey: finalKey,
      audioSize: stat.size,
      audioContentType: this.contentTypeOf(record, stat.contentType),
      // The bytes went client → store; reading them back here would put them through this node after all.
      audioSha256: null,
    });
    if (!accepted) await this.storage.delete(finalKey);
    else await this.storage.delete(uploadKey(id));
    return { kind: 'ready', record: (await this.transcriptions.getById(id)) ?? record };
  }

  private async check(teamId: string, size: number): Promise<CommitOutcome | null> {
    if (size === 0) return { kind: 'empty' };
    if (size > this.limits.maxBytes) return { kind: 'too-large', limit: this.limits.maxBytes, size };
    const quota = await teamQuotaBytes(this.usage, teamId, this.limits.teamQuotaBytes);
    if (quota !== undefined) {
      const used = await this.usage.audioBytes(teamId);
      if (used + size > quota) return { kind: 'over-quota', quota, used, size };
    }
    return null;
  }
}
