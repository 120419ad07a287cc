import { describe, expect, it } from 'vitest';
import { insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0005 local edits', () => {
  it('creates segment edits, speaker names, server reviews and a one-entry-per-target outbox', () => {
    const db = migratedThrough(5);
    insertTranscription(db, 't1');
    db.prepare(
      `INSERT INTO segment_edits (transcription_id, segment_id, text, words, edited_at) VALUES ('t1', 0, 'x', '[]', 'now')`,
    ).run();
    db.prepare(`INSERT INTO speaker_names (transcription_id, speaker, name) VALUES ('t1', 'SPEAKER_1', 'Alice')`).run();
    db.prepare(
      `INSERT INTO server_reviews (transcription_id, reviewed_text, fetched_at) VALUES ('t1', NULL, 'now')`,
    ).run();
    const enqueue = db.prepare(
      `INSERT INTO outbox (kind, target_id, payload, created_at, updated_at) VALUES ('review', 't1', '{}', 'now', 'now')`,
    );
    enqueue.run();
    expect(() => enqueue.run()).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT state, revision, attempts FROM outbox').get()).toEqual({
      state: 'pending',
      revision: 1,
      attempts: 0,
    });
    db.prepare(`DELETE FROM transcriptions`).run();
    expect(
      db
        .prepare(
          'SELECT (SELECT count(*) FROM segment_edits) + (SELECT count(*) FROM speaker_names) + (SELECT count(*) FROM server_reviews) AS n',
        )
        .get(),
    ).toEqual({ n: 0 });
  });
});
