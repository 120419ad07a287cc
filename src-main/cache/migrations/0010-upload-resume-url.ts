import type { CacheMigration } from './index.js';

// A tus upload's own URL (decision 0032), kept on the job so an upload cut off by the network or a restart
// asks the server for its offset and continues from there instead of byte 0.
export const migration0010: CacheMigration = {
  version: 10,
  name: 'upload resume url',
  up: `
    ALTER TABLE uploads ADD COLUMN resume_url TEXT;  -- the tus upload URL on the server (signed), or NULL
  `,
};
