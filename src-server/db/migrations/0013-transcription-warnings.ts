// What a finished transcription's reader should know (issue 27, decision 0070): a JSON array of
// { code, message, likely_language }, null for rows written before it (read as no warnings).
import type { ServerMigration } from './index.js';

export const migration0013: ServerMigration = {
  version: 13,
  name: '0013-transcription-warnings',
  async up(db) {
    await db.schema.alterTable('transcriptions').addColumn('warnings', 'text').execute();
  },
};
