// The transcript revision an analysis was computed from (issue 24, decision 0052): null for results computed
// before revisions were kept, and while one runs.
import type { ServerMigration } from './index.js';

export const migration0010: ServerMigration = {
  version: 10,
  name: '0010-analysis-revision',
  async up(db) {
    await db.schema.alterTable('analyses').addColumn('revision', 'integer').execute();
  },
};
