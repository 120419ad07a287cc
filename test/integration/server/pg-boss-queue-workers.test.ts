// The pg-boss queue's guarantees with two real worker processes on one PostgreSQL database (issue 9,
// item 4): every job completes exactly once; a worker SIGKILLed mid-job stops heartbeating, pg-boss's
// supervisor retries its job, and the other worker completes it; a cancel sent from another process
// reaches the running job through its signal. Short heartbeat settings, and the tests wait for outcomes.
// The job stands in for a transcription (test/support/pg-boss-worker-process.mjs); the queue is the build's.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { PgBossJobQueue } from '../../../src-server/jobs/pg-boss-job-queue.js';
import { exited } from '../../support/cli-process.js';
import { runCluster } from '../../support/postgres.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../support/pg-boss-worker-process.mjs');

interface WorkerEvent {
  worker: string;
  event: 'ready' | 'started' | 'written' | 'not-written';
  jobId?: string;
  transcriptionId?: string;
  attempt?: number;
  workerId?: string;
  reason?: string;
}

interface Worker {
  child: ChildProcess;
  events: WorkerEvent[];
  until(match: (e: WorkerEvent) => boolean): Promise<WorkerEvent>;
}

const server = runCluster;
const children: ChildProcess[] = [];
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
  for (const close of closers.splice(0)) await close();
});

function startWorker(url: string, name: string, o: { staleAfterMs: number; workMs: number }): Worker {
  const child = spawn(process.execPath, [SCRIPT, url, name, String(o.staleAfterMs), String(o.workMs), '1'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const events: WorkerEvent[] = [];
  const waiters: Array<() => void> = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) if (line.trim()) events.push(JSON.parse(line) as WorkerEvent);
    for (const wake of waiters.splice(0)) wake();
  });
  child.once('exit', () => {
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (match: (e: WorkerEvent) => boolean): Promise<WorkerEvent> => {
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`worker ${name} exited (${child.exitCode ?? child.signalCode})`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, events, until };
}

async function setup() {
  const url = await server.createDatabase('kikitori_workers');
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  await db.query(
    'CREATE TABLE test_results (job_id uuid NOT NULL, transcription_id text NOT NULL, worker text NOT NULL)',
  );
  // The sending side: an API process's queue, which runs nothing itself.
  const queue = new PgBossJobQueue({
    connectionString: url,
    staleAfterMs: 10_000,
    pollIntervalMs: 100,
    logger: pino({ level: 'silent' }),
  });
  closers.push(async () => {
    await queue.stop();
    await db.end();
  });
  return { url, db, queue };
}

const jobs = async (db: pg.Client) =>
  (
    await db.query<{ id: string; state: string; retry_count: number }>(
      `SELECT id, state, retry_count FROM pgboss.job WHERE name = 'transcribe' ORDER BY created_on`,
    )
  ).rows;
const results = async (db: pg.Client) =>
  (
    await db.query<{ job_id: string; transcription_id: string; worker: string }>(
      'SELECT job_id, transcription_id, worker FROM test_results',
    )
  ).rows;

describe('the pg-boss queue with two worker processes', () => {
  it('completes each of several jobs exactly once', async () => {
    const { url, db, queue } = await setup();
    const a = startWorker(url, 'A', { staleAfterMs: 60_000, workMs: 200 });
    const b = startWorker(url, 'B', { staleAfterMs: 60_000, workMs: 200 });
    await Promise.all([a.until((e) => e.event === 'ready'), b.until((e) => e.event === 'ready')]);

    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await queue.send('transcribe', { transcriptionId: `t${i}` }, { singletonKey: `transcribe:t${i}` }))!);
    await expect
      .poll(async () => (await jobs(db)).filter((j) => j.state === 'completed').length, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe(12);

    const written = await results(db);
    expect(written.map((r) => r.transcription_id).sort()).toEqual(ids.map((_, i) => `t${i}`).sort());
    expect(new Set(written.map((r) => r.job_id)).size).toBe(12);
    expect(new Set(written.map((r) => r.worker))).toEqual(new Set(['A', 'B']));
    // Each job was started once: none ran twice, on one worker or across both.
    const starts = [...a.events, ...b.events].filter((e) => e.event === 'started');
    expect(starts).toHaveLength(12);
  });

  it('completes on the other worker a job whose worker was SIGKILLed mid-job', async () => {
    const { url, db, queue } = await setup();
    const a = startWorker(url, 'A', { staleAfterMs: 10_000, workMs: 120_000 });
    await a.until((e) => e.event === 'ready');
    const jobId = (await queue.send(
      'transcribe',
      { transcriptionId: 'killed' },
      { singletonKey: 'transcribe:killed' },
    ))!;
    await a.until((e) => e.event === 'started' && e.jobId === jobId);

    a.child.kill('SIGKILL');
    await exited(a.child);
    const b = startWorker(url, 'B', { staleAfterMs: 10_000, workMs: 200 });
    // B's supervisor finds A's heartbeat lapsed, pg-boss retries the job, and B runs it as attempt 2.
    const started = await b.until((e) => e.event === 'started' && e.jobId === jobId);
    expect(started.attempt).toBe(2);
    await b.until((e) => e.event === 'written' && e.jobId === jobId);
    await expect.poll(async () => (await jobs(db))[0]?.state, { timeout: 10_000 }).toBe('completed');
    expect(await results(db)).toEqual([{ job_id: jobId, transcription_id: 'killed', worker: 'B' }]);
    expect(await queue.wait('transcribe', jobId)).toBeUndefined();
  });

  it('aborts a job running in another process when it is cancelled', async () => {
    const { url, db, queue } = await setup();
    const a = startWorker(url, 'A', { staleAfterMs: 60_000, workMs: 60_000 });
    await a.until((e) => e.event === 'ready');
    const jobId = (await queue.send('transcribe', { transcriptionId: 'long' }, { singletonKey: 'transcribe:long' }))!;
    await a.until((e) => e.event === 'started' && e.jobId === jobId);

    await queue.cancel('transcribe:long');
    const stopped = await a.until((e) => e.event === 'not-written' && e.jobId === jobId);
    expect(stopped.reason).toMatch(/cancelled/);
    expect((await jobs(db))[0]!.state).toBe('cancelled');
    expect(await results(db)).toEqual([]);
  });

  it('hands its running job back on SIGTERM, and the other worker runs it as the same attempt', async () => {
    const { url, db, queue } = await setup();
    const a = startWorker(url, 'A', { staleAfterMs: 60_000, workMs: 60_000 });
    await a.until((e) => e.event === 'ready');
    const jobId = (await queue.send('transcribe', { transcriptionId: 'drained' }))!;
    await a.until((e) => e.event === 'started' && e.jobId === jobId);

    a.child.kill('SIGTERM');
    await exited(a.child);
    expect(a.child.exitCode).toBe(0);
    const b = startWorker(url, 'B', { staleAfterMs: 60_000, workMs: 200 });
    const started = await b.until((e) => e.event === 'started' && e.jobId === jobId);
    expect(started.attempt).toBe(1);
    await b.until((e) => e.event === 'written' && e.jobId === jobId);
    await expect.poll(async () => (await jobs(db))[0]?.state, { timeout: 10_000 }).toBe('completed');
  });
});
