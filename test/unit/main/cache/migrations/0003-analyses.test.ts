import { describe, expect, it } from 'vitest';
import { insertTranscription, migratedThrough } from './migration-test-support.js';

describe('cache migration 0003 analyses', () => {
  it('keeps one result per transcription, kind and target language', () => {
    const db = migratedThrough(3);
    insertTranscription(db, 't1');
    const insert = db.prepare(
      `INSERT INTO analyses (transcription_id, kind, language, status, updated_at) VALUES ('t1', ?, ?, 'IN_PROGRESS', 'now')`,
    );
    insert.run('translation', 'es');
    insert.run('translation', 'fr');
    insert.run('summary', '');
    expect(() => insert.run('translation', 'es')).toThrow(/UNIQUE/);
    expect(db.prepare(`SELECT count(*) AS n FROM analyses WHERE status = 'IN_PROGRESS'`).get()).toEqual({ n: 3 });
  });
});
