import type { CacheMigration } from './index.js';

// Summary, emotion and translation results, one row per (transcription, kind, target language).
export const migration0003: CacheMigration = {
  version: 3,
  name: 'analyses',
  up: `
    CREATE TABLE analyses (
      transcription_id TEXT NOT NULL REFERENCES transcriptions(id) ON DELETE CASCADE,
      kind             TEXT NOT NULL,             -- summary | emotion | translation
      language         TEXT NOT NULL DEFAULT '',  -- target of a translation; '' otherwise
      status           TEXT NOT NULL,             -- IN_PROGRESS | COMPLETED | FAILED
      result           TEXT,                      -- the result body JSON as served
      error            TEXT,
      updated_at       TEXT NOT NULL,
      PRIMARY KEY (transcription_id, kind, language)
    );
    CREATE INDEX analyses_in_progress ON analyses (status) WHERE status = 'IN_PROGRESS';
  `,
};
