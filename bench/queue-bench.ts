// The job queues' own costs, without any engine (decision 0031): how long an idle worker takes to pick a
// job up (send → handler start, with the default 500 ms poll), and how many no-op jobs per second go
// through send → run → complete, for the SQLite queue and the pg-boss queue on a throwaway PostgreSQL.
// Prints figures; asserts nothing. Run: npm run bench:queue
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openSqliteDatabase } from '../src-server/db/database.js';
import type { JobQueue } from '../src-server/jobs/job-queue.js';
import { PgBossJobQueue } from '../src-server/jobs/pg-boss-job-queue.js';
import { SqliteJobQueue } from '../src-server/jobs/sqlite-job-queue.js';
import { startPostgres } from '../test/support/postgres.js';

const logger = pino({ level: 'silent' });
const PICKUPS = 20;
const JOBS = 300;

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Send → handler start, one job at a time, sent at random moments against the poll. The sender is another
 * queue (an API process): a send in the worker's own process wakes its poll at once, another's does not.
 */
async function pickup(make: () => JobQueue): Promise<number[]> {
  const queue = make();
  const sender = make();
  let started: ((at: number) => void) | null = null;
  queue.work('summarize', { handle: async () => started?.(performance.now()) });
  await queue.start();
  const samples: number[] = [];
  for (let i = 0; i < PICKUPS; i++) {
    await sleep(Math.random() * 700);
    const at = new Promise<number>((resolve) => (started = resolve));
    const sent = performance.now();
    await sender.send('summarize', { transcriptionId: `p${i}` });
    samples.push((await at) - sent);
  }
  await Promise.all([queue.stop(), sender.stop()]);
  return samples.sort((a, b) => a - b);
}

/** No-op jobs through `workers` queues (as many processes would be), each running `concurrency` at once. */
async function throughput(make: () => JobQueue, workers: number, concurrency: number): Promise<number> {
  const sender = make();
  const queues = Array.from({ length: workers }, make);
  let ran = 0;
  let allRan: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allRan = resolve));
  for (const queue of queues) {
    queue.work('translate', {
      concurrency,
      handle: async () => {
        if (++ran === JOBS) allRan();
      },
    });
    await queue.start();
  }
  const begin = performance.now();
  let last = '';
  for (let i = 0; i < JOBS; i++) last = (await sender.send('translate', { transcriptionId: `t${i}`, language: 'en' }))!;
  await done;
  await sender.wait('translate', last);
  const seconds = (performance.now() - begin) / 1000;
  await Promise.all([sender, ...queues].map((q) => q.stop()));
  return JOBS / seconds;
}

function print(label: string, samples: number[]) {
  console.log(
    `${label}: pickup p50 ${pct(samples, 50).toFixed(0)} ms, p95 ${pct(samples, 95).toFixed(0)} ms, max ${samples.at(-1)!.toFixed(0)} ms`,
  );
}

const dirs: string[] = [];
const sqliteQueue = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-queue-bench-'));
  dirs.push(dir);
  return dir;
};

const postgres = await startPostgres();
try {
  {
    const db = (await openSqliteDatabase(sqliteQueue())).sqlite;
    print('sqlite', await pickup(() => new SqliteJobQueue(db, { staleAfterMs: 60_000, logger })));
    const shared = (await openSqliteDatabase(sqliteQueue())).sqlite;
    const make = () => new SqliteJobQueue(shared, { staleAfterMs: 60_000, logger });
    for (const [workers, concurrency] of [
      [1, 1],
      [1, 4],
      [2, 4],
    ] as const) {
      console.log(
        `sqlite: ${(await throughput(make, workers, concurrency)).toFixed(1)} no-op jobs/s (${workers} worker(s) × ${concurrency})`,
      );
    }
    db.close();
    shared.close();
  }
  {
    const url = await postgres.createDatabase('kikitori_bench');
    print('pg-boss', await pickup(() => new PgBossJobQueue({ connectionString: url, staleAfterMs: 60_000, logger })));
    const shared = await postgres.createDatabase('kikitori_bench');
    const make = () => new PgBossJobQueue({ connectionString: shared, staleAfterMs: 60_000, logger });
    for (const [workers, concurrency] of [
      [1, 1],
      [1, 4],
      [2, 4],
    ] as const) {
      console.log(
        `pg-boss: ${(await throughput(make, workers, concurrency)).toFixed(1)} no-op jobs/s (${workers} worker(s) × ${concurrency})`,
      );
    }
  }
} finally {
  await postgres.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
