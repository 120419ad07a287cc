// A copy of the pre-Kysely migration, kept for the upgrade tests (test/support/legacy-sqlite/index.ts).
import type { Migration } from './index.js';

// Teams, users, hashed API keys, dictionaries, transcriptions, reviews and the job queue.
export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE teams (
      team_id      TEXT PRIMARY KEY,
      created_at   TEXT NOT NULL,
      list_version INTEGER NOT NULL DEFAULT 0  -- bumped by triggers on any change a transcription list shows
    );

    CREATE TABLE users (
      team_id     TEXT NOT NULL REFERENCES teams(team_id) ON DELETE CASCADE,
      user_id     TEXT NOT NULL,
      name        TEXT NOT NULL,
      created_at  TEXT NOT NULL,
      PRIMARY KEY (team_id, user_id)
    );

    CREATE TABLE api_keys (
      key_id       TEXT PRIMARY KEY,
      team_id      TEXT NOT NULL,
      user_id      TEXT NOT NULL,
      key_hash     TEXT NOT NULL UNIQUE,   -- sha256 of the key; the key itself is never stored
      key_prefix   TEXT NOT NULL,          -- first characters, to recognise a key in listings
      roles        TEXT NOT NULL,          -- JSON array, e.g. ["DELETE"]
      created_at   TEXT NOT NULL,
      revoked_at   TEXT,
      FOREIGN KEY (team_id, user_id) REFERENCES users(team_id, user_id) ON DELETE CASCADE
    );

    CREATE TABLE dictionaries (
      dictionary_id TEXT PRIMARY KEY,
      team_id       TEXT NOT NULL,
      name          TEXT NOT NULL,
      is_temporary  INTEGER NOT NULL DEFAULT 0,
      created_at    TEXT NOT NULL,
      updated_at    TEXT NOT NULL
    );
    -- Newest first is rowid order (rowids only grow), which this index serves without sorting.
    CREATE INDEX dictionaries_by_team ON dictionaries(team_id);

    CREATE TABLE words (
      word_id       TEXT PRIMARY KEY,
      dictionary_id TEXT NOT NULL REFERENCES dictionaries(dictionary_id) ON DELETE CASCADE,
      word          TEXT NOT NULL,
      reading       TEXT,
      created_at    TEXT NOT NULL,
      updated_at    TEXT NOT NULL
    );
    CREATE INDEX words_by_dictionary ON words(dictionary_id);

    CREATE TABLE blacklist_words (
      blacklist_word_id TEXT PRIMARY KEY,
      dictionary_id     TEXT NOT NULL REFERENCES dictionaries(dictionary_id) ON DELETE CASCADE,
      pattern           TEXT NOT NULL,
      replacement       TEXT NOT NULL,
      created_at        TEXT NOT NULL,
      updated_at        TEXT NOT NULL
    );
    CREATE INDEX blacklist_words_by_dictionary ON blacklist_words(dictionary_id);

    CREATE TABLE transcriptions (
      transcription_id    TEXT PRIMARY KEY,
      team_id             TEXT NOT NULL,
      user_id             TEXT NOT NULL,
      dictionary_id       TEXT,
      name                TEXT NOT NULL,
      languages           TEXT NOT NULL,          -- JSON array of ISO 639-1 codes
      transcription_model TEXT NOT NULL,
      num_speakers        INTEGER,
      min_speakers        INTEGER,
      max_speakers        INTEGER,
      status              TEXT NOT NULL,
      upload_status       TEXT NOT NULL,          -- PENDING | COMPLETED
      upload_expires_at   TEXT NOT NULL,
      audio_key           TEXT,
      audio_size          INTEGER,
      audio_content_type  TEXT,
      transcript_key      TEXT,
      duration            REAL,
      speaking_duration   REAL,
      progress            REAL,
      failure_reason      TEXT,
      engine              TEXT,
      created_at          TEXT NOT NULL,
      updated_at          TEXT NOT NULL
    );
    CREATE INDEX transcriptions_by_team ON transcriptions(team_id);
    CREATE INDEX transcriptions_pending_upload ON transcriptions(upload_expires_at) WHERE upload_status = 'PENDING';

    -- Any change that a transcription list would show bumps the team's list_version, so a cached
    -- list page is known to be current with one indexed read, from any server process.
    CREATE TRIGGER transcriptions_insert_version AFTER INSERT ON transcriptions BEGIN
      UPDATE teams SET list_version = list_version + 1 WHERE team_id = NEW.team_id;
    END;
    CREATE TRIGGER transcriptions_update_version AFTER UPDATE ON transcriptions BEGIN
      UPDATE teams SET list_version = list_version + 1 WHERE team_id IN (OLD.team_id, NEW.team_id);
    END;
    CREATE TRIGGER transcriptions_delete_version AFTER DELETE ON transcriptions BEGIN
      UPDATE teams SET list_version = list_version + 1 WHERE team_id = OLD.team_id;
    END;
    CREATE TRIGGER users_update_version AFTER UPDATE OF name ON users BEGIN
      UPDATE teams SET list_version = list_version + 1 WHERE team_id = NEW.team_id;
    END;

    CREATE TABLE reviews (
      transcription_id TEXT PRIMARY KEY REFERENCES transcriptions(transcription_id) ON DELETE CASCADE,
      reviewed_text    TEXT NOT NULL,
      created_at       TEXT NOT NULL,
      updated_at       TEXT NOT NULL
    );

    CREATE TABLE jobs (
      job_id        TEXT PRIMARY KEY,
      name          TEXT NOT NULL,
      payload       TEXT NOT NULL,            -- JSON
      state         TEXT NOT NULL,            -- queued | active | completed | failed | cancelled
      singleton_key TEXT,                     -- at most one unfinished job per key
      attempts      INTEGER NOT NULL DEFAULT 0,
      max_attempts  INTEGER NOT NULL,
      run_after     TEXT NOT NULL,
      worker_id     TEXT,
      heartbeat_at  TEXT,
      last_error    TEXT,
      created_at    TEXT NOT NULL,
      updated_at    TEXT NOT NULL
    );
    CREATE INDEX jobs_ready ON jobs(state, run_after);
    CREATE UNIQUE INDEX jobs_singleton ON jobs(singleton_key) WHERE state IN ('queued', 'active');
  `,
};
