import type { CacheMigration } from './index.js';

// When the server accepted an upload's /transcribe, by the server's clock (the answer's updated_at): the
// uploads queue ignores a library row older than that, which a list read before the start still holds.
export const migration0013: CacheMigration = {
  version: 13,
  name: 'upload started at',
  up: `
    ALTER TABLE uploads ADD COLUMN started_at TEXT;  -- the /transcribe answer's updated_at, or NULL before it
  `,
};
