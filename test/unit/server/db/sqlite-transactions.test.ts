// Write transactions on SQLite hold the write lock from their start, so another process's commit cannot
// slip between a transaction's read and its write (that made the write fail with SQLITE_BUSY at once,
// busy_timeout or not: a 500 on POST .../blacklist_words while the `all` role's worker wrote).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../../src-server/db/database.js';

let db: Database | null = null;
let other: BetterSqlite3.Database | null = null;
let dir = '';
afterEach(async () => {
  other?.close();
  await db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('holds the write lock from the start of a transaction that reads, then writes', async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-sqlite-tx-'));
  db = await openDatabase({ dataDir: dir, database: { url: null } });
  // Another process's connection, as a worker's (here without waiting for locks, so the test cannot hang).
  other = new BetterSqlite3(path.join(dir, 'kikitori.sqlite'));
  other.pragma('busy_timeout = 0');
  other.exec('CREATE TABLE probe (writer TEXT)');

  await db.kysely.transaction().execute(async (trx) => {
    const before = await sql<{ n: number }>`SELECT count(*) AS n FROM probe`.execute(trx);
    expect(before.rows[0]!.n).toBe(0);
    // The other connection cannot commit in between: it finds the database locked.
    expect(() => other!.prepare("INSERT INTO probe VALUES ('other')").run()).toThrow(/locked|busy/i);
    await sql`INSERT INTO probe VALUES ('transaction')`.execute(trx);
  });

  // Once the transaction is committed, the other connection writes as usual.
  other.prepare("INSERT INTO probe VALUES ('other')").run();
  expect(other.prepare('SELECT writer FROM probe ORDER BY rowid').pluck().all()).toEqual(['transaction', 'other']);
});
