// What each team keeps in storage, for the per-team quota (KIKITORI_TEAM_QUOTA_BYTES, decision 0026).
import type { Kdb } from './schema.js';

export interface StorageUsageRepository {
  /** Bytes of uploaded audio the team's transcriptions hold (deleted transcriptions hold none). */
  audioBytes(teamId: string): Promise<number>;
  /** The team's own quota: bytes, null for no quota, undefined when it has the server's default. */
  quotaOverride(teamId: string): Promise<number | null | undefined>;
  /** Sets the team's own quota (bytes, or null for none), or with undefined gives it the default again. */
  setQuotaOverride(teamId: string, bytes: number | null | undefined): Promise<void>;
}

export class KyselyStorageUsageRepository implements StorageUsageRepository {
  constructor(private readonly db: Kdb) {}

  async audioBytes(teamId: string): Promise<number> {
    const row = await this.db
      .selectFrom('transcriptions')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('audio_size'), eb.lit(0)).as('bytes'))
      .where('team_id', '=', teamId)
      .where('audio_key', 'is not', null)
      .executeTakeFirstOrThrow();
    // SUM of a bigint is numeric on PostgreSQL: a number either way once parsed.
    return Number(row.bytes);
  }

  async quotaOverride(teamId: string): Promise<number | null | undefined> {
    const row = await this.db.selectFrom('team_quotas').select('quota_bytes').where('team_id', '=', teamId).executeTakeFirst();
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
