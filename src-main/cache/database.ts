// The desktop cache: one SQLite file per server profile, owned by the main process. The schema version
// lives in PRAGMA user_version; each migration runs in its own transaction, and a database written by
// a newer Kikitori is refused rather than damaged.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runMigrations } from '../../src-shared/sqlite-migrations.js';
import { eraseDeletedContent } from '../../src-shared/sqlite-secure-delete.js';
import { cacheMigrations, type CacheMigration } from './migrations/index.js';

export type CacheDb = Database.Database;

export class CacheDatabaseTooNewError extends Error {
  override readonly name = 'CacheDatabaseTooNewError';
}

export function migrateCache(db: CacheDb, migrations: readonly CacheMigration[] = cacheMigrations): number {
  return runMigrations(
    db,
    migrations,
    (current, latest) =>
      new CacheDatabaseTooNewError(
        `The local cache was written by a newer Kikitori (schema ${current}; this version knows up to ${latest}). Update Kikitori to open it.`,
      ),
  );
}

/** Opens (creating and upgrading as needed) the cache database at `file`; ':memory:' for tests. */
export function openCacheDatabase(file: string): CacheDb {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Transcripts the user deletes leave no bytes behind (decision 0047).
  eraseDeletedContent(db);
  try {
    migrateCache(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
