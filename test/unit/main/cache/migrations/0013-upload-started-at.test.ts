import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0013 upload started at', () => {
  it('keeps when the server accepted an upload’s start, and leaves earlier uploads without one', () => {
    const db = migratedThrough(12);
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at) VALUES ('u1', 1, '/a.wav', 'a.wav', 10, 'done', '{}', 't', 't')`,
    ).run();
    migrateCache(db, cacheMigrations.slice(0, 13));
    expect(columns(db, 'uploads')).toContain('started_at');
    expect(db.prepare('SELECT id, started_at FROM uploads').all()).toEqual([{ id: 'u1', started_at: null }]);
    db.prepare(`UPDATE uploads SET started_at = '2026-01-02T00:00:02.000Z' WHERE id = 'u1'`).run();
    expect(db.prepare('SELECT started_at FROM uploads').get()).toEqual({ started_at: '2026-01-02T00:00:02.000Z' });
  });
});
