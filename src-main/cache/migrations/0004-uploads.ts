import type { CacheMigration } from './index.js';

// The upload queue, persisted so uploads resume after the app restarts.
export const migration0004: CacheMigration = {
  version: 4,
  name: 'uploads',
  up: `
    CREATE TABLE uploads (
      id                TEXT PRIMARY KEY,
      seq               INTEGER NOT NULL,      -- queue order
      file_path         TEXT NOT NULL,
      file_name         TEXT NOT NULL,
      size              INTEGER NOT NULL,
      sent_bytes        INTEGER NOT NULL DEFAULT 0,
      state             TEXT NOT NULL,         -- queued | uploading | starting | done | failed | cancelled
      options           TEXT NOT NULL,         -- UploadOptions JSON
      transcription_id  TEXT,                  -- from the ticket
      upload_url        TEXT,                  -- signed audio_upload_url of the ticket
      upload_expires_at TEXT,                  -- when that URL expires, when the server said
      error             TEXT,                  -- IpcError JSON
      created_at        TEXT NOT NULL,
      updated_at        TEXT NOT NULL
    );
    CREATE INDEX uploads_by_seq ON uploads (seq);
  `,
};
