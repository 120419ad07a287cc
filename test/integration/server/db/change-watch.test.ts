// The change watch (decision 0039) on a real SQLite file and a real PostgreSQL: its generation moves on
// this process's writes at once, on another connection's commits (SQLite: at its next data_version read;
// PostgreSQL: when the trigger's NOTIFY arrives), never on reads, and it is null while a PostgreSQL watch
// cannot see changes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { watchChanges, watchPostgres, watchSqlite, type ChangeWatch } from '../../../../src-server/db/change-watch.js';
import { openDatabase, type Database } from '../../../../src-server/db/database.js';
import { KyselyKeyRepository } from '../../../../src-server/db/key-repository.js';
import { KyselyTranscriptionRepository } from '../../../../src-server/db/transcription-repository.js';
import { runCluster } from '../../../support/postgres.js';

const logger = pino({ level: 'silent' });
const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function database(settings: { dataDir?: string; url?: string | null } = {}): Promise<Database> {
  const dataDir = settings.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-watch-'));
  const db = await openDatabase({ dataDir, database: { url: settings.url ?? null } });
  open.push(db);
  return db;
}

async function watch(db: Database, url: string | null = null): Promise<ChangeWatch> {
  const w = await watchChanges(db, url, logger);
  open.push(w);
  return w;
}

async function aKey(db: Database) {
  return new KyselyKeyRepository(db.kysely).create({ teamId: 'acme', userId: 'alice', userName: 'Alice', roles: [] });
}

describe('on SQLite', () => {
  it('moves on a write through this process, and stays on reads', async () => {
    const db = await database();
    const changes = await watch(db);
    const first = changes.generation();
    expect(first).not.toBeNull();
    expect(changes.generation()).toBe(first);
    const { key } = await aKey(db);
    const afterWrite = changes.generation();
    expect(afterWrite).toBeGreaterThan(first!);
    await new KyselyKeyRepository(db.kysely).authenticate(key);
    await new KyselyTranscriptionRepository(db.kysely).list('acme', 1, 20);
    expect(changes.generation()).toBe(afterWrite);
  });

  it('moves when another connection (another process) commits, at its next read of data_version', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-watch-'));
    const db = await database({ dataDir });
    const { info } = await aKey(db);
    const everyTime = watchSqlite(db.sqlite!, db.localWrites, 0);
    const seldom = watchSqlite(db.sqlite!, db.localWrites, 60_000);
    const before = [everyTime.generation()!, seldom.generation()!];
    const other = new BetterSqlite3(path.join(dataDir, 'kikitori.sqlite'));
    open.push({ close: () => void other.close() });
    other.prepare('UPDATE api_keys SET revoked_at = ? WHERE key_id = ?').run(new Date().toISOString(), info.keyId);
    expect(everyTime.generation()).toBeGreaterThan(before[0]!);
    // Not read again yet: the other commit is not seen, but this process's own write is, at once.
    expect(seldom.generation()).toBe(before[1]);
    await new KyselyKeyRepository(db.kysely).revoke(info.keyId);
    expect(seldom.generation()).toBeGreaterThan(before[1]!);
  });

  it("sees another connection's commit within its recheck time by default", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-watch-'));
    const db = await database({ dataDir });
    const changes = await watch(db);
    const before = changes.generation();
    const other = new BetterSqlite3(path.join(dataDir, 'kikitori.sqlite'));
    open.push({ close: () => void other.close() });
    other.prepare("INSERT INTO teams (team_id, created_at) VALUES ('other', ?)").run(new Date().toISOString());
    await expect.poll(() => changes.generation(), { interval: 5 }).toBeGreaterThan(before!);
  });
});

describe('on PostgreSQL', () => {
  const server = runCluster;

  /** The watch's backend: its last statement was its LISTEN or a keepalive probe. */
  const IS_LISTENER = `(query LIKE 'LISTEN%' OR query LIKE 'SELECT pg_notify%') AND pid <> pg_backend_pid()`;

  async function client(url: string) {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    open.push({ close: () => c.end() });
    return c;
  }

  it("moves on this process's writes at once, and on another connection's commits when their NOTIFY arrives", async () => {
    const url = await server.createDatabase();
    const db = await database({ url });
    const changes = await watch(db, url);
    const first = changes.generation();
    expect(first).not.toBeNull();
    const { info } = await aKey(db);
    const afterWrite = changes.generation();
    expect(afterWrite).toBeGreaterThan(first!);
    await new KyselyTranscriptionRepository(db.kysely).list('acme', 1, 20);

    // Another process revokes the key.
    const other = await client(url);
    // Its own NOTIFYs for the key's creation may still be on their way: wait until the generation settles.
    let settled = changes.generation();
    await expect
      .poll(async () => {
        const seen = settled;
        await new Promise((resolve) => setTimeout(resolve, 200));
        settled = changes.generation();
        return settled === seen;
      })
      .toBe(true);
    await other.query('UPDATE api_keys SET revoked_at = $1 WHERE key_id = $2', [new Date().toISOString(), info.keyId]);
    await expect.poll(() => changes.generation()).toBeGreaterThan(settled!);

    // A rolled-back change notifies no one.
    const quiet = changes.generation();
    await other.query('BEGIN');
    await other.query('UPDATE users SET name = $1 WHERE user_id = $2', ['Eve', 'alice']);
    await other.query('ROLLBACK');
    await other.query('SELECT pg_sleep(0.3)');
    expect(changes.generation()).toBe(quiet);
  });

  it('is null while its connection is gone, and moves once it is back', async () => {
    const url = await server.createDatabase();
    const db = await database({ url });
    const changes = await watchPostgres({ url, local: db.localWrites, logger, keepaliveMs: 200 });
    open.push(changes);
    const before = changes.generation();
    expect(before).not.toBeNull();
    const admin = await client(url);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE ${IS_LISTENER}`);
    await expect.poll(() => changes.generation()).toBeNull();
    // Reconnected with backoff (the first retry after half a second).
    await expect.poll(() => changes.generation(), { timeout: 10_000 }).not.toBeNull();
    expect(changes.generation()).toBeGreaterThan(before!);
  });

  it('is null when its connection falls silent past three keepalive periods, and trusted again once it answers', async () => {
    const url = await server.createDatabase();
    const db = await database({ url });
    const changes = await watchPostgres({ url, local: db.localWrites, logger, keepaliveMs: 100 });
    open.push(changes);
    expect(changes.generation()).not.toBeNull();
    // The listening backend stops answering, as over a network that silently dropped the connection.
    const admin = await client(url);
    const { rows } = await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE ${IS_LISTENER}`);
    expect(rows).toHaveLength(1);
    process.kill(rows[0]!.pid, 'SIGSTOP');
    try {
      await expect.poll(() => changes.generation()).toBeNull();
    } finally {
      process.kill(rows[0]!.pid, 'SIGCONT');
    }
    await expect.poll(() => changes.generation()).not.toBeNull();
  });
  it('is null when notifications stop arriving though queries still work (as through a pooler in transaction mode)', async () => {
    const url = await server.createDatabase();
    const db = await database({ url });
    const proxy = await notificationDroppingProxy(url);
    open.push(proxy);
    const changes = await watchPostgres({ url: proxy.url, local: db.localWrites, logger, keepaliveMs: 100 });
    open.push(changes);
    await expect.poll(() => changes.generation()).not.toBeNull();
    proxy.dropNotifications = true;
    await expect.poll(() => changes.generation()).toBeNull();
    proxy.dropNotifications = false;
    await expect.poll(() => changes.generation()).not.toBeNull();
  });
});

/**
 * A TCP proxy to PostgreSQL that, while `dropNotifications` is set, drops the NotificationResponse
 * messages ('A') the server sends, and passes everything else: queries keep working, notifications do not
 * arrive. Server messages are framed as a type byte and a 32-bit length that counts itself.
 */
async function notificationDroppingProxy(
  target: string,
): Promise<{ url: string; dropNotifications: boolean; close(): Promise<void> }> {
  const upstream = new URL(target);
  const sockets = new Set<net.Socket>();
  const proxy = {
    url: '',
    dropNotifications: false,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    const db = net.connect(Number(upstream.port), upstream.hostname);
    sockets.add(client).add(db);
    client.on('error', () => db.destroy());
    db.on('error', () => client.destroy());
    client.pipe(db);
    let pending = Buffer.alloc(0);
    db.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      const out: Buffer[] = [];
      while (pending.length >= 5) {
        const length = 1 + pending.readUInt32BE(1);
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (!(proxy.dropNotifications && message[0] === 0x41)) out.push(message);
      }
      if (out.length > 0) client.write(Buffer.concat(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  proxy.url = url.toString();
  return proxy;
}
