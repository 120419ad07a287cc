// A copy of the pre-Kysely migration, kept for the upgrade tests (test/support/legacy-sqlite/index.ts).
import type { Migration } from './index.js';

// When processing of a transcription began (this attempt) and what it is doing now: the app's ETA
// and its "Recognizing speech · 40%" line come from these (src-shared/api/vocabulary.ts has the stages).
export const migration0003: Migration = {
  version: 3,
  name: 'processing-stage',
  up: `
    ALTER TABLE transcriptions ADD COLUMN processing_started_at TEXT;
    ALTER TABLE transcriptions ADD COLUMN stage TEXT;
  `,
};
