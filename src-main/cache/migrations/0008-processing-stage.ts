import type { CacheMigration } from './index.js';

// The server's `processing_started_at` and `stage` of a running transcription, so the library row and
// the transcript view can say what it is doing and estimate the time left (src-shared/eta.ts).
export const migration0008: CacheMigration = {
  version: 8,
  name: 'processing stage',
  up: `
    ALTER TABLE transcriptions ADD COLUMN processing_started_at TEXT;
    ALTER TABLE transcriptions ADD COLUMN stage TEXT;
  `,
};
