import type { CacheMigration } from './index.js';

// Transcription records as last seen on the server, their transcript documents, and audio kept on
// this machine for offline playback.
export const migration0001: CacheMigration = {
  version: 1,
  name: 'transcriptions',
  up: `
    CREATE TABLE transcriptions (
      id                 TEXT PRIMARY KEY,
      name               TEXT NOT NULL,
      status             TEXT NOT NULL,
      upload_status      TEXT,                  -- PENDING | COMPLETED (server extension), null if unknown
      progress           REAL,
      duration           REAL,
      speaking_duration  REAL,
      languages          TEXT NOT NULL DEFAULT '[]',   -- JSON array of ISO 639-1 codes
      model              TEXT NOT NULL DEFAULT 'default',
      dictionary_id      TEXT,
      user_name          TEXT,
      failure_reason     TEXT,
      num_speakers       INTEGER,
      audio_path         TEXT,                  -- signed URL, as last served
      transcription_path TEXT,                  -- signed URL, as last served
      created_at         TEXT NOT NULL,
      updated_at         TEXT NOT NULL,
      synced_at          TEXT NOT NULL
    );
    CREATE INDEX transcriptions_by_created ON transcriptions (created_at DESC, id);

    CREATE TABLE transcript_documents (
      transcription_id TEXT PRIMARY KEY REFERENCES transcriptions(id) ON DELETE CASCADE,
      document         TEXT NOT NULL,          -- the TranscriptDocument JSON as served
      speakers         INTEGER NOT NULL,       -- distinct speaker labels in it
      fetched_at       TEXT NOT NULL
    );

    -- No foreign key: the file may arrive (copied at upload) before the record is first synced.
    CREATE TABLE audio_files (
      transcription_id TEXT PRIMARY KEY,
      file             TEXT NOT NULL,          -- absolute path under the profile's cache dir
      size             INTEGER NOT NULL,
      content_type     TEXT,
      source           TEXT NOT NULL,          -- 'upload' (copied from this machine) | 'download'
      cached_at        TEXT NOT NULL
    );
  `,
};
