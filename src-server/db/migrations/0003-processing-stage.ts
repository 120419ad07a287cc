// When processing of a transcription began (this attempt) and what it is doing now: the app's ETA
// and its "Recognizing speech · 40%" line come from these (src-shared/api/vocabulary.ts has the stages).
import type { ServerMigration } from './index.js';

export const migration0003: ServerMigration = {
  version: 3,
  name: '0003-processing-stage',
  async up(db) {
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    await db.schema.alterTable('transcriptions').addColumn('processing_started_at', 'text').execute();
    await db.schema.alterTable('transcriptions').addColumn('stage', 'text').execute();
  },
};
