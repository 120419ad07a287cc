import { describe, expect, it } from 'vitest';
import { migratedThrough } from './migration-test-support.js';

describe('cache migration 0006 search index', () => {
  it('keeps the FTS5 index in step with its entries through triggers', () => {
    const db = migratedThrough(6);
    const insert = db.prepare(
      `INSERT INTO search_entries (transcription_id, kind, segment_id, start, text, body) VALUES (?, 'transcript', 0, 1.5, ?, ?)`,
    );
    insert.run('t1', 'Budget meeting', 'Budget meeting');
    insert.run('t2', 'Café on Friday', 'Café on Friday');
    const match = (q: string) =>
      (db.prepare(`SELECT rowid FROM search_fts WHERE search_fts MATCH ?`).all(q) as Array<{ rowid: number }>).length;
    expect(match('budget')).toBe(1);
    expect(match('cafe')).toBe(1); // diacritics folded
    db.prepare(`UPDATE search_entries SET text = 'Lunch', body = 'Lunch' WHERE transcription_id = 't1'`).run();
    expect(match('budget')).toBe(0);
    expect(match('lunch')).toBe(1);
    db.prepare(`DELETE FROM search_entries WHERE transcription_id = 't2'`).run();
    expect(match('cafe')).toBe(0);
  });
});
