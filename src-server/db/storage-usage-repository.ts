// What each team keeps in storage, for the per-team quota (KIKITORI_TEAM_QUOTA_BYTES, decision 0026).
import type { Db } from './database.js';

export interface StorageUsageRepository {
  /** Bytes of uploaded audio the team's transcriptions hold (deleted transcriptions hold none). */
  audioBytes(teamId: string): Promise<number>;
}

export class SqliteStorageUsageRepository implements StorageUsageRepository {
  private readonly audioBytesStatement;

  constructor(db: Db) {
    this.audioBytesStatement = db
      .prepare('SELECT COALESCE(SUM(audio_size), 0) FROM transcriptions WHERE team_id = ? AND audio_key IS NOT NULL')
      .pluck();
  }

  async audioBytes(teamId: string): Promise<number> {
    return Number(this.audioBytesStatement.get(teamId));
  }
}
