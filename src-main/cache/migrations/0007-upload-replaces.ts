import type { CacheMigration } from './index.js';

// A re-run (docs/decisions/0020-reruns.md) is an upload of a failed transcription's cached audio that
// replaces it: the failed one is deleted once the new transcription exists and has its own copy of
// the audio. Kept on the job, so a restart between the two still finishes the replacement.
export const migration0007: CacheMigration = {
  version: 7,
  name: 'upload replaces',
  up: `
    ALTER TABLE uploads ADD COLUMN replaces TEXT;  -- the transcription this upload transcribes again, or NULL
    CREATE INDEX uploads_by_replaces ON uploads (replaces) WHERE replaces IS NOT NULL;
  `,
};
