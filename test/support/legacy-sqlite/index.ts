// The server's SQLite schema as the code before Kysely wrote it (PRAGMA user_version 1..5, verbatim copies of
// the old src-server/db/migrations), so the migration tests can upgrade a real data dir made the old way.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { runMigrations, type Migration } from '../../../src-shared/sqlite-migrations.js';
import { migration0001 } from './0001-initial.js';
import { migration0002 } from './0002-analyses.js';
import { migration0003 } from './0003-processing-stage.js';
import { migration0004 } from './0004-job-results.js';
import { migration0005 } from './0005-audio-sha256.js';

export type { Migration };

export const legacyMigrations: readonly Migration[] = [
  migration0001,
  migration0002,
  migration0003,
  migration0004,
  migration0005,
];

/** Writes DATA_DIR/kikitori.sqlite at `version` exactly as the old openDatabase did, and returns the open handle. */
export function createLegacyDatabase(dataDir: string, version = legacyMigrations.length): Database.Database {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(path.join(dataDir, 'kikitori.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  runMigrations(db, legacyMigrations.slice(0, version), () => new Error('too new'));
  return db;
}
