// What each team keeps in storage, for the per-team quota (KIKITORI_TEAM_QUOTA_BYTES, decision 0026).
import type { Kdb } from './schema.js';

export interface StorageUsageRepository {
  /** Bytes of uploaded audio the team's transcriptions hold (deleted transcriptions hold none). */
  audioBytes(teamId: string): Promise<number>;
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
}
