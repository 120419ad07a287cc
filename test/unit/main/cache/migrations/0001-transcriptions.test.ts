import { describe, expect, it } from 'vitest';
import { columns, insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0001 transcriptions', () => {
  it('creates records, documents (cascading with their record) and audio files', () => {
    const db = migratedThrough(1);
    expect(columns(db, 'transcriptions')).toEqual(
      expect.arrayContaining(['id', 'status', 'upload_status', 'languages', 'audio_path', 'synced_at']),
    );
    insertTranscription(db, 't1');
    db.prepare(
      `INSERT INTO transcript_documents (transcription_id, document, speakers, fetched_at) VALUES ('t1', '{}', 0, 'now')`,
    ).run();
    db.prepare(
      `INSERT INTO audio_files (transcription_id, file, size, source, cached_at) VALUES ('not-synced-yet', '/a', 1, 'upload', 'now')`,
    ).run();
    db.prepare(`DELETE FROM transcriptions WHERE id = 't1'`).run();
    expect(db.prepare('SELECT count(*) AS n FROM transcript_documents').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM audio_files').get()).toEqual({ n: 1 });
  });
});
