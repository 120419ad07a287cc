// The SQLite queue's guarantees with two real worker processes on one database file (issue 9, item 4):
// every job completes exactly once; a worker whose lease expired while it ran (stopped with SIGSTOP, as
// a long GC pause or a frozen VM would) writes nothing once it resumes, because the worker that took
// the job over owns it; a cancel from another process reaches the running job through its signal.
// The job stands in for a transcription (test/support/queue-worker-process.mjs); the queue is the build's.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type Db } from '../../../src-server/db/database.js';
import { SqliteJobQueue } from '../../../src-server/jobs/sqlite-job-queue.js';
import { exited } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-server.js';

const SCRIPT = path.resolve(import.meta.dirname, '../../support/queue-worker-process.mjs');

interface WorkerEvent {
  worker: string;
  event: 'ready' | 'started' | 'written' | 'not-written';
  jobId?: string;
  transcriptionId?: string;
  workerId?: string;
  reason?: string;
}

interface Worker {
  child: ChildProcess;
  events: WorkerEvent[];
  /** Resolves with the first event (past or future) that matches. */
  until(match: (e: WorkerEvent) => boolean): Promise<WorkerEvent>;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];
const dbs: Db[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited(child);
  }
  for (const db of dbs.splice(0)) db.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function startWorker(dataDir: string, name: string, o: { staleAfterMs: number; workMs: number }): Worker {
  const child = spawn(process.execPath, [SCRIPT, dataDir, name, String(o.staleAfterMs), String(o.workMs)], {
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
  const until = async (match: (e: WorkerEvent) => boolean): Promise<WorkerEvent> => {
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      if (child.exitCode !== null) throw new Error(`worker ${name} exited with ${child.exitCode}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { child, events, until };
}

async function setup() {
  const dataDir = tempDir('kikitori-workers-');
  dirs.push(dataDir);
  const db = (await openSqliteDatabase(dataDir)).sqlite;
  dbs.push(db);
  db.exec(
    'CREATE TABLE IF NOT EXISTS test_results (job_id TEXT NOT NULL, transcription_id TEXT NOT NULL, worker TEXT NOT NULL)',
  );
  // The sending side: an API process's queue, which runs nothing itself.
  const queue = new SqliteJobQueue(db, { staleAfterMs: 60_000, logger: pino({ level: 'silent' }) });
  return { dataDir, db, queue };
}

const jobs = (db: Db) =>
  db.prepare('SELECT job_id, state, worker_id FROM jobs ORDER BY created_at').all() as Array<{
    job_id: string;
    state: string;
    worker_id: string | null;
  }>;
const results = (db: Db) =>
  db.prepare('SELECT job_id, transcription_id, worker FROM test_results').all() as Array<{
    job_id: string;
    transcription_id: string;
    worker: string;
  }>;

describe('the SQLite queue with two worker processes', () => {
  it('completes each of several jobs exactly once', async () => {
    const { dataDir, db, queue } = await setup();
    const a = startWorker(dataDir, 'A', { staleAfterMs: 60_000, workMs: 150 });
    const b = startWorker(dataDir, 'B', { staleAfterMs: 60_000, workMs: 150 });
    await Promise.all([a.until((e) => e.event === 'ready'), b.until((e) => e.event === 'ready')]);

    const ids = [];
    for (let i = 0; i < 8; i++)
      ids.push(await queue.send('transcribe', { transcriptionId: `t${i}` }, { singletonKey: `transcribe:t${i}` }));
    await expect
      .poll(() => jobs(db).filter((j) => j.state === 'completed').length, { timeout: 30_000, interval: 100 })
      .toBe(8);

    const written = results(db);
    expect(written.map((r) => r.transcription_id).sort()).toEqual(ids.map((_, i) => `t${i}`).sort());
    expect(new Set(written.map((r) => r.job_id)).size).toBe(8);
    // Both took part, and each completed row names the worker that owned it.
    expect(new Set(written.map((r) => r.worker))).toEqual(new Set(['A', 'B']));
    const workerIds = {
      A: (await a.until((e) => e.event === 'ready')).workerId,
      B: (await b.until((e) => e.event === 'ready')).workerId,
    };
    for (const row of written)
      expect(jobs(db).find((j) => j.job_id === row.job_id)!.worker_id).toBe(workerIds[row.worker as 'A' | 'B']);
  });

  it('writes nothing from a worker whose lease expired while it ran, once another took the job over', async () => {
    const { dataDir, db, queue } = await setup();
    const a = startWorker(dataDir, 'A', { staleAfterMs: 1000, workMs: 2500 });
    await a.until((e) => e.event === 'ready');
    const jobId = (await queue.send('transcribe', { transcriptionId: 'slow' }))!;
    await a.until((e) => e.event === 'started' && e.jobId === jobId);

    // A freezes mid-job: no heartbeat, no poll. B finds the lease stale, takes the job and completes it.
    a.child.kill('SIGSTOP');
    const b = startWorker(dataDir, 'B', { staleAfterMs: 1000, workMs: 300 });
    await b.until((e) => e.event === 'written' && e.jobId === jobId);
    await expect.poll(() => jobs(db)[0]!.state, { timeout: 10_000 }).toBe('completed');

    // A wakes up past its work: it finds it no longer owns the job and writes nothing.
    a.child.kill('SIGCONT');
    const late = await a.until((e) => e.event === 'not-written' && e.jobId === jobId);
    expect(late.reason).toMatch(/lost|another worker/);
    expect(results(db)).toEqual([{ job_id: jobId, transcription_id: 'slow', worker: 'B' }]);
    const bId = (await b.until((e) => e.event === 'ready')).workerId;
    expect(jobs(db)).toEqual([{ job_id: jobId, state: 'completed', worker_id: bId }]);
    expect(a.events.filter((e) => e.event === 'started')).toHaveLength(1);
  });

  it('aborts a job running in another process when it is cancelled', async () => {
    const { dataDir, db, queue } = await setup();
    const a = startWorker(dataDir, 'A', { staleAfterMs: 60_000, workMs: 60_000 });
    await a.until((e) => e.event === 'ready');
    const jobId = (await queue.send('transcribe', { transcriptionId: 'long' }, { singletonKey: 'transcribe:long' }))!;
    await a.until((e) => e.event === 'started' && e.jobId === jobId);

    await queue.cancel('transcribe:long');
    const stopped = await a.until((e) => e.event === 'not-written' && e.jobId === jobId);
    expect(stopped.reason).toMatch(/cancelled/);
    expect(jobs(db)[0]!.state).toBe('cancelled');
    expect(results(db)).toEqual([]);
  });
});
