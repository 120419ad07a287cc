// A copy of the pre-Kysely migration, kept for the upgrade tests (test/support/legacy-sqlite/index.ts).
import type { Migration } from './index.js';

// The SHA-256 of the stored audio, recorded when an upload commits (decision 0032).
export const migration0005: Migration = {
  version: 5,
  name: 'audio-sha256',
  up: `
    ALTER TABLE transcriptions ADD COLUMN audio_sha256 TEXT;   -- lowercase hex; null for audio stored before
  `,
};
