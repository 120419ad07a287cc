import { describe, expect, it } from 'vitest';
import { insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0009 edited documents', () => {
  it('keeps one edited segment list per transcription, gone with the transcription, beside older segment edits', () => {
    const db = migratedThrough(9);
    insertTranscription(db, 't1');
    db.prepare(
      `INSERT INTO segment_edits (transcription_id, segment_id, text, words, edited_at) VALUES ('t1', 0, 'older', '[]', 'now')`,
    ).run();
    const put = db.prepare(
      `INSERT INTO edited_documents (transcription_id, segments, edited_at) VALUES ('t1', '[]', 'now')`,
    );
    put.run();
    expect(() => put.run()).toThrow(/UNIQUE|PRIMARY/);
    expect(db.prepare('SELECT text FROM segment_edits').all()).toEqual([{ text: 'older' }]);
    db.prepare('DELETE FROM transcriptions').run();
    expect(db.prepare('SELECT count(*) AS n FROM edited_documents').get()).toEqual({ n: 0 });
  });
});
