import { describe, expect, it } from 'vitest';
import { migratedThrough } from './migration-test-support.js';

describe('cache migration 0002 dictionaries', () => {
  it('creates dictionaries whose words and blacklist words go with them', () => {
    const db = migratedThrough(2);
    db.prepare(`INSERT INTO dictionaries (id, name, created_at, updated_at) VALUES ('d1', 'Names', 't', 't')`).run();
    db.prepare(
      `INSERT INTO dictionary_words (id, dictionary_id, word, position) VALUES ('w1', 'd1', 'Kikitori', 0)`,
    ).run();
    db.prepare(
      `INSERT INTO blacklist_words (id, dictionary_id, pattern, replacement, position) VALUES ('b1', 'd1', 'a', 'b', 0)`,
    ).run();
    expect(db.prepare(`SELECT detail_at, is_temporary FROM dictionaries`).get()).toEqual({
      detail_at: null,
      is_temporary: 0,
    });
    db.prepare(`DELETE FROM dictionaries WHERE id = 'd1'`).run();
    expect(
      db.prepare('SELECT (SELECT count(*) FROM dictionary_words) + (SELECT count(*) FROM blacklist_words) AS n').get(),
    ).toEqual({ n: 0 });
  });
});
