import type { CacheMigration } from './index.js';

// Dictionaries with their words and forced-replacement (blacklist) words, readable offline.
export const migration0002: CacheMigration = {
  version: 2,
  name: 'dictionaries',
  up: `
    CREATE TABLE dictionaries (
      id             TEXT PRIMARY KEY,
      name           TEXT NOT NULL,
      is_temporary   INTEGER NOT NULL DEFAULT 0,
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL,
      detail_at      TEXT                     -- server updated_at of the cached words; null: words never fetched
    );

    CREATE TABLE dictionary_words (
      id            TEXT PRIMARY KEY,
      dictionary_id TEXT NOT NULL REFERENCES dictionaries(id) ON DELETE CASCADE,
      word          TEXT NOT NULL,
      reading       TEXT,
      position      INTEGER NOT NULL
    );
    CREATE INDEX dictionary_words_by_dictionary ON dictionary_words (dictionary_id, position);

    CREATE TABLE blacklist_words (
      id            TEXT PRIMARY KEY,
      dictionary_id TEXT NOT NULL REFERENCES dictionaries(id) ON DELETE CASCADE,
      pattern       TEXT NOT NULL,
      replacement   TEXT NOT NULL,
      position      INTEGER NOT NULL
    );
    CREATE INDEX blacklist_words_by_dictionary ON blacklist_words (dictionary_id, position);
  `,
};
