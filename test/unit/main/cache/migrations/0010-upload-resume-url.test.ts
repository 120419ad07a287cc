import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0010 upload resume url', () => {
  it('keeps a resumable upload’s URL on its job', () => {
    const db = migratedThrough(10);
    expect(columns(db, 'uploads')).toContain('resume_url');
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at, resume_url) VALUES ('u2', 1, '/a.wav', 'a.wav', 10, 'queued', '{}', 't', 't', 'http://s/files/upload/x/tus/y')`,
    ).run();
    expect(db.prepare(`SELECT resume_url FROM uploads WHERE id = 'u2'`).get()).toEqual({
      resume_url: 'http://s/files/upload/x/tus/y',
    });
  });

  it('leaves uploads queued before it with nothing to resume', () => {
    const db = new Database(':memory:');
    migrateCache(db, cacheMigrations.slice(0, 9));
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at) VALUES ('u1', 1, '/a.wav', 'a.wav', 10, 'uploading', '{}', 't', 't')`,
    ).run();
    migrateCache(db, cacheMigrations.slice(0, 10));
    expect(db.prepare('SELECT id, resume_url FROM uploads').all()).toEqual([{ id: 'u1', resume_url: null }]);
  });
});
