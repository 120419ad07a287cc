// Summary, emotion and translation results, one row per (transcription, kind, target language).
import { withRowId } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0002: ServerMigration = {
  version: 2,
  name: '0002-analyses',
  async up(db) {
    await withRowId(db, db.schema.createTable('analyses'))
      .addColumn('transcription_id', 'text', (c) =>
        c.notNull().references('transcriptions.transcription_id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('engine', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('analyses_pk', ['transcription_id', 'kind', 'language'])
      .execute();
  },
};
