import type { CacheMigration } from './index.js';

// Deleted means gone from disk (decision 0047). An FTS5 delete only records that a row's terms no longer
// count; the terms themselves stay in the index's segments until they are merged. With secure-delete they
// are removed at once, and 'optimize' merges what earlier deletes left behind.
export const migration0011: CacheMigration = {
  version: 11,
  name: 'search secure delete',
  up: `
    INSERT INTO search_fts (search_fts, rank) VALUES ('secure-delete', 1);
    INSERT INTO search_fts (search_fts) VALUES ('optimize');
  `,
};
