// The server's database in both dialects, for suites that run the same contract on SQLite and PostgreSQL.
// PostgreSQL databases are taken on the run's one cluster (test/support/postgres-cluster-setup.ts); every
// database handed out is fresh and empty.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database, type DialectName, type OpenOptions } from '../../src-server/db/database.js';
import { testDatabase } from './postgres.js';

export const DIALECTS: readonly DialectName[] = ['sqlite', 'postgres'];

export interface TestDatabases {
  /** Settings for a fresh database: a new data dir, plus a new PostgreSQL database for 'postgres'. */
  settings(dialect: DialectName): Promise<{ dataDir: string; database: { url: string | null } }>;
  /** A fresh database, opened (and migrated unless told otherwise); closed by closeAll(). */
  open(dialect: DialectName, options?: OpenOptions): Promise<Database>;
  /** Closes every database opened here and removes the data dirs. */
  closeAll(): Promise<void>;
}

export function testDatabases(): TestDatabases {
  const opened: Database[] = [];
  const dirs: string[] = [];
  const settings = async (dialect: DialectName) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-db-'));
    dirs.push(dataDir);
    if (dialect === 'sqlite') return { dataDir, database: { url: null } };
    return { dataDir, database: { url: await testDatabase() } };
  };
  return {
    settings,
    async open(dialect, options) {
      const database = await openDatabase(await settings(dialect), options);
      opened.push(database);
      return database;
    },
    async closeAll() {
      await Promise.all(opened.splice(0).map((d) => d.close()));
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
