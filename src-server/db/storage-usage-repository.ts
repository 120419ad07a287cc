// What each team keeps in storage, for the per-team quota (KIKITORI_TEAM_QUOTA_BYTES, decision 0026), and what
// its open tus uploads hold of it until they end (decision 0043).
import { sql } from 'kysely';
import { isPostgres } from './migrations/dialect.js';
import type { Kdb } from './schema.js';

export interface UploadReservation {
  uploadId: string;
  transcriptionId: string;
  teamId: string;
  /** The upload's declared Upload-Length. */
  bytes: number;
}

export type ReservationOutcome =
  | { kind: 'reserved' }
  /** `used`: audio stored; `reserved`: held by the team's other open uploads. */
  | { kind: 'over-quota'; quota: number; used: number; reserved: number }
  | { kind: 'too-many'; open: number; limit: number };

export interface StorageUsageRepository {
  /** Bytes of uploaded audio the team's transcriptions hold (deleted transcriptions hold none). */
  audioBytes(teamId: string): Promise<number>;
  /**
   * Bytes the team's open uploads hold, of tickets that still take audio, leaving out one ticket's own. A ticket
   * stores one file at most, so it holds its largest open upload, not the sum of them.
   */
  reservedBytes(teamId: string, exceptTranscriptionId?: string): Promise<number>;
  /**
   * Holds `bytes` of the team's quota for a new upload, if its stored audio, its other uploads' holds and this
   * one fit in `quotaBytes` (undefined: no quota) and the team has fewer than `maxOpen` open uploads. Checked
   * and written as one step for every server process of the database.
   */
  reserveUpload(
    reservation: UploadReservation,
    limits: { quotaBytes: number | undefined; maxOpen: number },
  ): Promise<ReservationOutcome>;
  /** The upload's hold, while it has one. */
  reservation(uploadId: string): Promise<UploadReservation | null>;
  releaseUpload(uploadId: string): Promise<void>;
  /** Drops the holds of tickets that no longer take audio (used, expired, cancelled); returns how many. */
  releaseEnded(): Promise<number>;
  /** Which of `uploadIds` still hold a reservation. */
  heldUploads(uploadIds: readonly string[]): Promise<Set<string>>;
  /** The team's own quota: bytes, null for no quota, undefined when it has the server's default. */
  quotaOverride(teamId: string): Promise<number | null | undefined>;
  /** Sets the team's own quota (bytes, or null for none), or with undefined gives it the default again. */
  setQuotaOverride(teamId: string, bytes: number | null | undefined): Promise<void>;
}

/** Reservations of tickets that can still take audio: the others count for nothing, whatever the sweep has not yet dropped. */
function liveReservations(db: Kdb) {
  return db
    .selectFrom('upload_reservations as r')
    .innerJoin('transcriptions as t', 't.transcription_id', 'r.transcription_id')
    .where('t.upload_status', '=', 'PENDING')
    .where('t.status', '=', 'IN_PROGRESS');
}

async function audioBytes(db: Kdb, teamId: string): Promise<number> {
  const row = await db
    .selectFrom('transcriptions')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('audio_size'), eb.lit(0)).as('bytes'))
    .where('team_id', '=', teamId)
    .where('audio_key', 'is not', null)
    .executeTakeFirstOrThrow();
  // SUM of a bigint is numeric on PostgreSQL: a number either way once parsed.
  return Number(row.bytes);
}

async function reservedBytes(db: Kdb, teamId: string, exceptTranscriptionId?: string): Promise<number> {
  let perTicket = liveReservations(db)
    .select((eb) => eb.fn.max<number>('r.bytes').as('bytes'))
    .where('r.team_id', '=', teamId)
    .groupBy('r.transcription_id');
  if (exceptTranscriptionId !== undefined)
    perTicket = perTicket.where('r.transcription_id', '<>', exceptTranscriptionId);
  const row = await db
    .selectFrom(perTicket.as('p'))
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('p.bytes'), eb.lit(0)).as('bytes'))
    .executeTakeFirstOrThrow();
  return Number(row.bytes);
}

export class KyselyStorageUsageRepository implements StorageUsageRepository {
  constructor(private readonly db: Kdb) {}

  audioBytes(teamId: string): Promise<number> {
    return audioBytes(this.db, teamId);
  }

  reservedBytes(teamId: string, exceptTranscriptionId?: string): Promise<number> {
    return reservedBytes(this.db, teamId, exceptTranscriptionId);
  }

  async reserveUpload(
    reservation: UploadReservation,
    limits: { quotaBytes: number | undefined; maxOpen: number },
  ): Promise<ReservationOutcome> {
    const { uploadId, transcriptionId, teamId, bytes } = reservation;
    // SQLite's transactions take the write lock as they begin (database.ts); on PostgreSQL a lock per team
    // makes two processes reserving for one team at once take turns, so both cannot fit in the same remainder.
    return this.db.transaction().execute(async (trx) => {
      if (isPostgres(trx))
        await sql`SELECT pg_advisory_xact_lock(hashtext(${`kikitori-upload-reservations:${teamId}`}))`.execute(trx);
      const { open } = await liveReservations(trx)
        .select((eb) => eb.fn.countAll<number>().as('open'))
        .where('r.team_id', '=', teamId)
        .executeTakeFirstOrThrow();
      if (Number(open) >= limits.maxOpen) return { kind: 'too-many', open: Number(open), limit: limits.maxOpen };
      if (limits.quotaBytes !== undefined) {
        const used = await audioBytes(trx, teamId);
        const others = await reservedBytes(trx, teamId, transcriptionId);
        const own = await liveReservations(trx)
          .select((eb) => eb.fn.max<number>('r.bytes').as('bytes'))
          .where('r.transcription_id', '=', transcriptionId)
          .executeTakeFirst();
        const ownBytes = Number(own?.bytes ?? 0);
        if (used + others + Math.max(ownBytes, bytes) > limits.quotaBytes) {
          return { kind: 'over-quota', quota: limits.quotaBytes, used, reserved: others + ownBytes };
        }
      }
      await trx
        .insertInto('upload_reservations')
        .values({
          upload_id: uploadId,
          transcription_id: transcriptionId,
          team_id: teamId,
          bytes,
          created_at: new Date().toISOString(),
        })
        .execute();
      return { kind: 'reserved' };
    });
  }

  async reservation(uploadId: string): Promise<UploadReservation | null> {
    const row = await this.db
      .selectFrom('upload_reservations')
      .selectAll()
      .where('upload_id', '=', uploadId)
      .executeTakeFirst();
    return row
      ? {
          uploadId: row.upload_id,
          transcriptionId: row.transcription_id,
          teamId: row.team_id,
          bytes: Number(row.bytes),
        }
      : null;
  }

  async releaseUpload(uploadId: string): Promise<void> {
    await this.db.deleteFrom('upload_reservations').where('upload_id', '=', uploadId).execute();
  }

  async releaseEnded(): Promise<number> {
    const result = await this.db
      .deleteFrom('upload_reservations')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('transcriptions as t')
              .select('t.transcription_id')
              .whereRef('t.transcription_id', '=', 'upload_reservations.transcription_id')
              .where('t.upload_status', '=', 'PENDING')
              .where('t.status', '=', 'IN_PROGRESS'),
          ),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async heldUploads(uploadIds: readonly string[]): Promise<Set<string>> {
    const held = new Set<string>();
    // In slices, well under either database's limit on bound parameters.
    for (let i = 0; i < uploadIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('upload_reservations')
        .select('upload_id')
        .where('upload_id', 'in', uploadIds.slice(i, i + 500))
        .execute();
      for (const row of rows) held.add(row.upload_id);
    }
    return held;
  }

  async quotaOverride(teamId: string): Promise<number | null | undefined> {
    const row = await this.db
      .selectFrom('team_quotas')
      .select('quota_bytes')
      .where('team_id', '=', teamId)
      .executeTakeFirst();
    if (!row) return undefined;
    return row.quota_bytes === null ? null : Number(row.quota_bytes);
  }

  async setQuotaOverride(teamId: string, bytes: number | null | undefined): Promise<void> {
    if (bytes === undefined) {
      await this.db.deleteFrom('team_quotas').where('team_id', '=', teamId).execute();
      return;
    }
    const updatedAt = new Date().toISOString();
    await this.db
      .insertInto('team_quotas')
      .values({ team_id: teamId, quota_bytes: bytes, updated_at: updatedAt })
      .onConflict((oc) => oc.column('team_id').doUpdateSet({ quota_bytes: bytes, updated_at: updatedAt }))
      .execute();
  }
}
