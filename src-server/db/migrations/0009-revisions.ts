// A transcript's revisions (issue 24, decision 0052): one row per revision, with its author, time, source
// and summary; the change against the revision before (JSON), and every SNAPSHOT_EVERY revisions (and
// the first) the whole document (JSON), so the latest is read as the nearest snapshot plus a few changes.
// Deleting the transcription deletes its revisions.
import type { ServerMigration } from './index.js';

export const migration0009: ServerMigration = {
  version: 9,
  name: '0009-revisions',
  async up(db) {
    await db.schema
      .createTable('transcript_revisions')
      .addColumn('transcription_id', 'text', (c) =>
        c.notNull().references('transcriptions.transcription_id').onDelete('cascade'),
      )
      .addColumn('revision', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('author_user_id', 'text', (c) => c.notNull())
      .addColumn('author_name', 'text', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('change', 'text')
      .addColumn('snapshot', 'text')
      .addPrimaryKeyConstraint('transcript_revisions_pk', ['transcription_id', 'revision'])
      .execute();
  },
};
