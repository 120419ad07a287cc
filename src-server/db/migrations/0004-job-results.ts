// Jobs hand a result or a typed failure to whoever waits for them (the OpenAI route's jobs), and finished
// rows are purged after the retention period (decision 0028). The jobs table is SQLite's alone.
import { sql } from 'kysely';
import { isPostgres } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0004: ServerMigration = {
  version: 4,
  name: '0004-job-results',
  async up(db) {
    if (isPostgres(db)) return;
    // JSON result of a completed job, for JobQueue.wait; JSON {kind?, message, field?} of a failed one.
    await db.schema.alterTable('jobs').addColumn('output', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('error', 'text').execute();
    await db.schema
      .createIndex('jobs_ended')
      .on('jobs')
      .column('updated_at')
      .where(sql.ref('state'), 'in', ['completed', 'failed', 'cancelled'])
      .execute();
  },
};
