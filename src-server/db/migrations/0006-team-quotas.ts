// A team's own storage quota, overriding KIKITORI_TEAM_QUOTA_BYTES (`kikitori-server teams quota`):
// a row with quota_bytes for a quota of its own, with null for no quota; no row: the server's default.
import { isPostgres } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0006: ServerMigration = {
  version: 6,
  name: '0006-team-quotas',
  async up(db) {
    await db.schema
      .createTable('team_quotas')
      .addColumn('team_id', 'text', (c) => c.primaryKey())
      .addColumn('quota_bytes', isPostgres(db) ? 'bigint' : 'integer')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
