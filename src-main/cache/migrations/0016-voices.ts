import type { CacheMigration } from './index.js';

// The team's voice library as last listed (decision 0075): names and counts only, so the Voices page and
// the "This is…" picker read offline. The voice prints stay on the server; none is ever copied here.
export const migration0016: CacheMigration = {
  version: 16,
  name: 'voices',
  up: `
    CREATE TABLE voices (
      id             TEXT PRIMARY KEY,
      name           TEXT NOT NULL,
      sample_count   INTEGER NOT NULL,
      speech_seconds REAL NOT NULL,
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL,
      listed_at      TEXT NOT NULL         -- when this computer last had it from the server
    );
  `,
};
