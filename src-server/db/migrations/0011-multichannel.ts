// Whether an upload asked for each channel to be transcribed as its own speaker (issue 25, decision 0061).
// Integer 0/1 on both databases, like SQLite's booleans; existing rows were mixed down.
import type { ServerMigration } from './index.js';

export const migration0011: ServerMigration = {
  version: 11,
  name: '0011-multichannel',
  async up(db) {
    await db.schema
      .alterTable('transcriptions')
      .addColumn('multichannel', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
