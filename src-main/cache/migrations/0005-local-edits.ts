import type { CacheMigration } from './index.js';

// What the user changed on this machine: corrected segments (with re-timed words), speaker display
// names, the last corrected text known on the server, and the outbox of changes not yet sent
// (docs/decisions/0007-offline-edits.md).
export const migration0005: CacheMigration = {
  version: 5,
  name: 'local edits',
  up: `
    CREATE TABLE segment_edits (
      transcription_id TEXT NOT NULL REFERENCES transcriptions(id) ON DELETE CASCADE,
      segment_id       INTEGER NOT NULL,
      text             TEXT NOT NULL,
      words            TEXT NOT NULL,          -- TranscriptWord[] JSON, re-timed
      edited_at        TEXT NOT NULL,
      PRIMARY KEY (transcription_id, segment_id)
    );

    CREATE TABLE speaker_names (
      transcription_id TEXT NOT NULL REFERENCES transcriptions(id) ON DELETE CASCADE,
      speaker          TEXT NOT NULL,          -- the label in the document, e.g. SPEAKER_1
      name             TEXT NOT NULL,
      PRIMARY KEY (transcription_id, speaker)
    );

    CREATE TABLE server_reviews (
      transcription_id TEXT PRIMARY KEY REFERENCES transcriptions(id) ON DELETE CASCADE,
      reviewed_text    TEXT,                   -- null: the server has none
      fetched_at       TEXT NOT NULL
    );

    CREATE TABLE outbox (
      seq          INTEGER PRIMARY KEY AUTOINCREMENT,
      kind         TEXT NOT NULL,              -- 'review'
      target_id    TEXT NOT NULL,              -- transcription id
      payload      TEXT NOT NULL,              -- JSON
      base         TEXT,                       -- the server's value the change was made against (JSON)
      state        TEXT NOT NULL DEFAULT 'pending',  -- pending | conflict
      revision     INTEGER NOT NULL DEFAULT 1,       -- bumped when a newer change replaces the payload
      attempts     INTEGER NOT NULL DEFAULT 0,
      last_error   TEXT,                       -- IpcError JSON
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL
    );
    CREATE UNIQUE INDEX outbox_one_per_target ON outbox (kind, target_id);
  `,
};
