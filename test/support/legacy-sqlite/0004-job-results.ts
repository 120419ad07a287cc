// A copy of the pre-Kysely migration, kept for the upgrade tests (test/support/legacy-sqlite/index.ts).
import type { Migration } from './index.js';

// Jobs hand a result or a typed failure to whoever waits for them (the OpenAI route's jobs), and finished
// rows are purged after the retention period (decision 0028).
export const migration0004: Migration = {
  version: 4,
  name: 'job-results',
  up: `
    ALTER TABLE jobs ADD COLUMN output TEXT;   -- JSON result of a completed job, for JobQueue.wait
    ALTER TABLE jobs ADD COLUMN error TEXT;    -- JSON {kind?, message, field?} of a failed job
    CREATE INDEX jobs_ended ON jobs(updated_at) WHERE state IN ('completed', 'failed', 'cancelled');
  `,
};
