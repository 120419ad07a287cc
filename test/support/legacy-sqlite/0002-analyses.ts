// A copy of the pre-Kysely migration, kept for the upgrade tests (test/support/legacy-sqlite/index.ts).
import type { Migration } from './index.js';

// Summary, emotion and translation results, one row per (transcription, kind, target language).
export const migration0002: Migration = {
  version: 2,
  name: 'analyses',
  up: `
    CREATE TABLE analyses (
      transcription_id TEXT NOT NULL REFERENCES transcriptions(transcription_id) ON DELETE CASCADE,
      kind             TEXT NOT NULL,            -- summary | emotion | translation
      language         TEXT NOT NULL DEFAULT '', -- target language of a translation; '' otherwise
      status           TEXT NOT NULL,            -- IN_PROGRESS | COMPLETED | FAILED
      result           TEXT,                     -- JSON, once COMPLETED
      error            TEXT,                     -- why it FAILED
      engine           TEXT,
      created_at       TEXT NOT NULL,
      updated_at       TEXT NOT NULL,
      PRIMARY KEY (transcription_id, kind, language)
    );
  `,
};
