import type { CacheMigration } from './index.js';

// Why a transcription failed as the server's closed code (its failure_code, issue 27), so the library
// says it in the UI's language offline too; NULL for records synced before, and from servers without it.
export const migration0015: CacheMigration = {
  version: 15,
  name: 'failure code',
  up: `
    ALTER TABLE transcriptions ADD COLUMN failure_code TEXT;
  `,
};
