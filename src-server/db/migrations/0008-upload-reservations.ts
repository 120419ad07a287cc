// Open tus uploads hold their declared Upload-Length against the team's quota until they complete, fail,
// are terminated or their ticket ends (issue 22, decision 0043): one row per upload, shared by every
// server process of the database. Deleting the transcription releases its rows.
import { isPostgres } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0008: ServerMigration = {
  version: 8,
  name: '0008-upload-reservations',
  async up(db) {
    await db.schema
      .createTable('upload_reservations')
      .addColumn('upload_id', 'text', (c) => c.primaryKey())
      .addColumn('transcription_id', 'text', (c) =>
        c.notNull().references('transcriptions.transcription_id').onDelete('cascade'),
      )
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('bytes', isPostgres(db) ? 'bigint' : 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('upload_reservations_team').on('upload_reservations').column('team_id').execute();
    await db.schema
      .createIndex('upload_reservations_transcription')
      .on('upload_reservations')
      .column('transcription_id')
      .execute();
  },
};
