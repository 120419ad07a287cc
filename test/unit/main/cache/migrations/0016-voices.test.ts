import { describe, expect, it } from 'vitest';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0016 voices', () => {
  it('adds a table of the team voices by name and counts, with no voice print column', () => {
    const db = migratedThrough(16);
    expect(columns(db, 'voices')).toEqual([
      'id',
      'name',
      'sample_count',
      'speech_seconds',
      'created_at',
      'updated_at',
      'listed_at',
    ]);
    db.prepare(
      `INSERT INTO voices (id, name, sample_count, speech_seconds, created_at, updated_at, listed_at)
       VALUES ('v1', 'Alice', 2, 7.5, 'c', 'u', 'l')`,
    ).run();
    expect(db.prepare('SELECT name, sample_count, speech_seconds FROM voices').get()).toEqual({
      name: 'Alice',
      sample_count: 2,
      speech_seconds: 7.5,
    });
  });
});
