// SQLite connection and schema upgrades. The schema version lives in PRAGMA user_version;
// each migration runs in its own transaction, and a database newer than this code is refused.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runMigrations, type Migration } from '../../src-shared/sqlite-migrations.js';
import { migrations as allMigrations } from './migrations/index.js';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  override readonly name = 'DatabaseTooNewError';
}

export function migrate(db: Db, migrations: readonly Migration[] = allMigrations): number {
  return runMigrations(
    db,
    migrations,
    (current, latest) =>
      new DatabaseTooNewError(
        `The database is at schema version ${current}, but this kikitori-server knows only up to ${latest}. Upgrade kikitori-server.`,
      ),
  );
}

export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'kikitori.sqlite');
  // Created private before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file);
  // WAL lets readers proceed during writes; synchronous=NORMAL is durable across process crashes in WAL mode.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}
