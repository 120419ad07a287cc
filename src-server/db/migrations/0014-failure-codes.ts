// Why a transcription or an analysis failed, as a closed code beside the server's text (issue 27,
// decision 0068): clients word it in their own language. Null for rows that failed before, whose text
// alone is kept.
import type { ServerMigration } from './index.js';

export const migration0014: ServerMigration = {
  version: 14,
  name: '0014-failure-codes',
  async up(db) {
    await db.schema.alterTable('transcriptions').addColumn('failure_code', 'text').execute();
    await db.schema.alterTable('analyses').addColumn('error_code', 'text').execute();
  },
};
