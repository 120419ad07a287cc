// The team voice library (issue 25, decision 0065): a team's enrolled voices and their prints, one per
// sample, each with where it came from (transcription, start, end), never audio. Prints go with their voice
// (ON DELETE CASCADE); they stay when the transcription they came from is deleted (they are not audio, and
// the voice would otherwise lose its samples without its owner's action). `recognize_speakers` on a
// transcription: 0 when its upload opted out of recognition.
import { isPostgres, withRowId } from './dialect.js';
import type { ServerMigration } from './index.js';

export const migration0012: ServerMigration = {
  version: 12,
  name: '0012-voice-library',
  async up(db) {
    const real = isPostgres(db) ? 'double precision' : 'real';
    await withRowId(db, db.schema.createTable('voices'))
      .addColumn('voice_id', 'text', (c) => c.primaryKey())
      .addColumn('team_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('voices_by_team').on('voices').column('team_id').execute();
    await withRowId(db, db.schema.createTable('voice_prints'))
      .addColumn('print_id', 'text', (c) => c.primaryKey())
      .addColumn('voice_id', 'text', (c) => c.notNull().references('voices.voice_id').onDelete('cascade'))
      .addColumn('transcription_id', 'text', (c) => c.notNull())
      .addColumn('start_seconds', real, (c) => c.notNull())
      .addColumn('end_seconds', real, (c) => c.notNull())
      .addColumn('speech_seconds', real, (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      /** JSON array of numbers. */
      .addColumn('print', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('voice_prints_by_voice').on('voice_prints').column('voice_id').execute();
    await db.schema
      .alterTable('transcriptions')
      .addColumn('recognize_speakers', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
