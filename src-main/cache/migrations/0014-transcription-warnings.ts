import type { CacheMigration } from './index.js';

// A finished transcription's warnings (decision 0070), as JSON [{ code, likelyLanguage }], so the library
// row and the transcript view show them offline too. NULL: none, or cached before the server said.
export const migration0014: CacheMigration = {
  version: 14,
  name: 'transcription warnings',
  up: `
    ALTER TABLE transcriptions ADD COLUMN warnings TEXT;
  `,
};
