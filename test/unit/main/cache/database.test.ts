import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CacheDatabaseTooNewError, migrateCache, openCacheDatabase } from '../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../src-main/cache/migrations/index.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('cache database', () => {
  const dir = tempDir('kikitori-cache-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('numbers migrations contiguously from 1', () => {
    expect(cacheMigrations.map((m) => m.version)).toEqual(cacheMigrations.map((_, i) => i + 1));
  });

  it('creates a file database at the latest version, and reopens it unchanged', () => {
    const file = path.join(dir, 'nested', 'cache.sqlite');
    openCacheDatabase(file).close();
    const db = openCacheDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(cacheMigrations.length);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('rolls a failing migration back whole', () => {
    const db = new Database(':memory:');
    const broken = [
      ...cacheMigrations,
      { version: cacheMigrations.length + 1, name: 'broken', up: 'CREATE TABLE half (x); SELECT * FROM missing;' },
    ];
    expect(() => migrateCache(db, broken)).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(cacheMigrations.length);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'half'`).get()).toEqual({ n: 0 });
  });

  it('refuses a database written by a newer Kikitori, and leaves it alone', () => {
    const file = path.join(dir, 'newer.sqlite');
    const newer = new Database(file);
    newer.pragma(`user_version = ${cacheMigrations.length + 3}`);
    newer.close();
    expect(() => openCacheDatabase(file)).toThrow(CacheDatabaseTooNewError);
    const check = new Database(file);
    expect(check.pragma('user_version', { simple: true })).toBe(cacheMigrations.length + 3);
    check.close();
  });
});
