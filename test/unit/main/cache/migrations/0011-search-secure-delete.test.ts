import { describe, expect, it } from 'vitest';
import { migratedThrough } from './migration-test-support.js';

/** FTS5 index blocks that hold `term` as bytes. */
const blocksWith = (db: ReturnType<typeof migratedThrough>, term: string) =>
  (
    db
      .prepare('SELECT count(*) AS n FROM search_fts_data WHERE instr(block, ?) > 0')
      .get(Buffer.from(term, 'utf8')) as { n: number }
  ).n;

describe('cache migration 0011 search secure delete', () => {
  it('removes a deleted entry’s terms from the full-text index, not only its row', () => {
    const db = migratedThrough(11);
    expect(db.prepare(`SELECT v FROM search_fts_config WHERE k = 'secure-delete'`).get()).toEqual({ v: 1 });
    const insert = db.prepare(
      `INSERT INTO search_entries (transcription_id, kind, segment_id, start, text, body) VALUES (?, 'transcript', 0, 0, ?, ?)`,
    );
    insert.run('keep', 'budget meeting', 'budget meeting');
    insert.run('gone', 'quokkamarmalade budget', 'quokkamarmalade budget');
    // Entries written after it: the delete is not the next write to the segment that holds its terms.
    for (let i = 0; i < 3; i++) insert.run('keep', `other words ${i}`, `other words ${i}`);
    expect(blocksWith(db, 'quokkamarmalade')).toBeGreaterThan(0);
    db.prepare(`DELETE FROM search_entries WHERE transcription_id = 'gone'`).run();
    expect(blocksWith(db, 'quokkamarmalade')).toBe(0);
    expect(db.prepare(`SELECT count(*) AS n FROM search_fts WHERE search_fts MATCH 'budget'`).get()).toEqual({ n: 1 });
  });
});
