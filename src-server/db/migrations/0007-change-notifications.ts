// PostgreSQL tells listening API processes that what their hot caches hold may have changed (decision
// 0039): a NOTIFY on kikitori_changes, once per statement, when a team's list_version moves (any change a
// transcription list shows, through the list_version triggers) or a key or user changes (a revoked key,
// a renamed user). PostgreSQL delivers it on commit, and not at all for a rolled-back change. SQLite needs
// nothing: its processes see each other's commits in PRAGMA data_version.
import { sql } from 'kysely';
import { CHANGES_CHANNEL } from '../change-watch.js';
import { isPostgres } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0007: ServerMigration = {
  version: 7,
  name: '0007-change-notifications',
  async up(db) {
    if (!isPostgres(db)) return;
    await sql`CREATE FUNCTION kikitori_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(${sql.lit(CHANGES_CHANNEL)}, TG_TABLE_NAME);
        RETURN NULL;
      END $$`.execute(db);
    for (const table of ['teams', 'api_keys', 'users']) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_notify_change`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION kikitori_notify_change()`.execute(db);
    }
  },
};
