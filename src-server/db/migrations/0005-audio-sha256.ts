// The SHA-256 of the stored audio, recorded when an upload commits (decision 0032): lowercase hex,
// null for audio stored before.
import type { ServerMigration } from './index.js';

export const migration0005: ServerMigration = {
  version: 5,
  name: '0005-audio-sha256',
  async up(db) {
    await db.schema.alterTable('transcriptions').addColumn('audio_sha256', 'text').execute();
  },
};
