import { expect } from 'vitest';
import Database from 'better-sqlite3';
import { migrateCache, type CacheDb } from '../../../../../src-main/cache/database.js';
import { cacheMigrations } from '../../../../../src-main/cache/migrations/index.js';

/** A database migrated to `version - 1`, then to `version`: the migration under test runs alone. */
export function migratedThrough(version: number): CacheDb {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrateCache(db, cacheMigrations.slice(0, version - 1));
  expect(db.pragma('user_version', { simple: true })).toBe(version - 1);
  migrateCache(db, cacheMigrations.slice(0, version));
  expect(db.pragma('user_version', { simple: true })).toBe(version);
  return db;
}

export function columns(db: CacheDb, table: string): string[] {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);
}

export function insertTranscription(db: CacheDb, id: string) {
  db.prepare(
    `INSERT INTO transcriptions (id, name, status, created_at, updated_at, synced_at) VALUES (?, 'a.wav', 'COMPLETED', 't', 't', 't')`,
  ).run(id);
}
