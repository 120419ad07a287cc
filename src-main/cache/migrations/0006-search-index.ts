import type { CacheMigration } from './index.js';

// Full-text search over transcript segments, summaries and translations. search_entries holds the
// rows (indexed by transcription for cheap replacement); search_fts is an FTS5 index over their
// "body": the text NFKC-normalised with CJK characters spaced apart, so unicode61 indexes Japanese
// and Chinese character by character and a query matches them as a phrase.
export const migration0006: CacheMigration = {
  version: 6,
  name: 'search index',
  up: `
    CREATE TABLE search_entries (
      id               INTEGER PRIMARY KEY,
      transcription_id TEXT NOT NULL,
      kind             TEXT NOT NULL,          -- transcript | summary | translation
      segment_id       INTEGER,
      start            REAL,
      text             TEXT NOT NULL,          -- as displayed
      body             TEXT NOT NULL           -- as indexed
    );
    CREATE INDEX search_entries_by_transcription ON search_entries (transcription_id, kind);

    CREATE VIRTUAL TABLE search_fts USING fts5(
      body,
      content = 'search_entries',
      content_rowid = 'id',
      tokenize = 'unicode61 remove_diacritics 2'
    );

    CREATE TRIGGER search_entries_ai AFTER INSERT ON search_entries BEGIN
      INSERT INTO search_fts (rowid, body) VALUES (new.id, new.body);
    END;
    CREATE TRIGGER search_entries_ad AFTER DELETE ON search_entries BEGIN
      INSERT INTO search_fts (search_fts, rowid, body) VALUES ('delete', old.id, old.body);
    END;
    CREATE TRIGGER search_entries_au AFTER UPDATE ON search_entries BEGIN
      INSERT INTO search_fts (search_fts, rowid, body) VALUES ('delete', old.id, old.body);
      INSERT INTO search_fts (rowid, body) VALUES (new.id, new.body);
    END;
  `,
};
