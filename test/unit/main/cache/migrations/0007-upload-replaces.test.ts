import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateCache } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';
import { columns, migratedThrough } from './migration-test-support.js';

describe('cache migration 0007 upload replaces', () => {
  it('records which transcription an upload replaces', () => {
    const db = migratedThrough(7);
    expect(columns(db, 'uploads')).toContain('replaces');
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at, replaces) VALUES ('u2', 1, '/a.wav', 'a.wav', 10, 'queued', '{}', 't', 't', 'tr-1')`,
    ).run();
    expect(db.prepare(`SELECT id FROM uploads WHERE replaces = 'tr-1'`).all()).toEqual([{ id: 'u2' }]);
  });

  it('leaves uploads queued before it replacing nothing', () => {
    const db = new Database(':memory:');
    migrateCache(db, cacheMigrations.slice(0, 6));
    db.prepare(
      `INSERT INTO uploads (id, seq, file_path, file_name, size, state, options, created_at, updated_at) VALUES ('u1', 1, '/a.wav', 'a.wav', 10, 'queued', '{}', 't', 't')`,
    ).run();
    migrateCache(db, cacheMigrations.slice(0, 7));
    expect(db.prepare('SELECT id, replaces FROM uploads').all()).toEqual([{ id: 'u1', replaces: null }]);
  });
});
