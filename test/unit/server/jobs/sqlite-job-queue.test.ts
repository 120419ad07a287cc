import os from 'node:os';
import Database from 'better-sqlite3';
import pino from 'pino';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrate, sqliteDatabase, type Db } from '../../../../src-server/db/database.js';
import { EngineError, type EngineErrorKind } from '../../../../src-server/domain/engine-error.js';
import { failsAtOnce, SqliteJobQueue } from '../../../../src-server/jobs/sqlite-job-queue.js';
import { JobLostError } from '../../../../src-server/jobs/job-queue.js';
import { abortReason } from '../../../../src-shared/abort.js';
import { capturedLog, describeJobQueueContract, type ContractState } from '../../../support/job-queue-contract.js';

const logger = pino({ level: 'silent' });
const queues: SqliteJobQueue[] = [];

function setup(db: Db = migratedDb()) {
  const queue = new SqliteJobQueue(db, { staleAfterMs: 60_000, pollIntervalMs: 20, retryBaseMs: 10, logger });
  queues.push(queue);
  return { db, queue };
}
// The server's schema, migrated once; each test gets its own in-memory copy.
let migrated: Buffer;
beforeAll(async () => {
  const db = new Database(':memory:');
  await migrate(sqliteDatabase(db));
  migrated = db.serialize();
  db.close();
});
function migratedDb() {
  return new Database(migrated);
}
const jobRow = (db: Db, id: string) =>
  db.prepare('SELECT state, attempts, last_error FROM jobs WHERE job_id = ?').get(id) as any;
const deferred = <T = void>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
});

describeJobQueueContract('SqliteJobQueue', {
  async open() {
    const db = migratedDb();
    return {
      queue: (options) =>
        new SqliteJobQueue(db, {
          staleAfterMs: 60_000,
          pollIntervalMs: 20,
          retryBaseMs: 10,
          logger: options?.logger ?? logger,
        }),
      state: async (id) =>
        (db.prepare('SELECT state FROM jobs WHERE job_id = ?').get(id) as { state: ContractState } | undefined)?.state,
    };
  },
});

describe('SqliteJobQueue: its rows', () => {
  it('fails at once, without retries, on a bad-input EngineError, and records its user message', async () => {
    const { db, queue } = setup();
    const failed = deferred<Error>();
    let runs = 0;
    queue.work('transcribe', {
      maxAttempts: 5,
      handle: async () => {
        runs += 1;
        throw new EngineError('bad-input', 'corrupt input', {
          detail: 'ffmpeg: invalid data found when processing input',
        });
      },
      onFailed: async (_p, error) => failed.resolve(error),
    });
    await queue.start();
    const id = await queue.send('transcribe', { transcriptionId: 't' });
    expect((await failed.promise).message).toBe('corrupt input');
    expect(runs).toBe(1);
    expect(jobRow(db, id!)).toMatchObject({ state: 'failed', attempts: 1, last_error: 'corrupt input' });
  });

  it('fails at once on every EngineError kind but transient, and retries anything else', () => {
    const verdicts = (['unavailable', 'unsupported', 'bad-input', 'transient'] as EngineErrorKind[]).map((kind) =>
      failsAtOnce(new EngineError(kind, 'x')),
    );
    expect(verdicts).toEqual([true, true, true, false]);
    expect(failsAtOnce(new Error('disk full'))).toBe(false);
    expect(failsAtOnce('a string')).toBe(false);
  });

  it('gives up after max attempts and reports the failure once', async () => {
    const { db, queue } = setup();
    const reports: string[] = [];
    const failed = deferred();
    queue.work('transcribe', {
      maxAttempts: 2,
      handle: async () => {
        throw new Error('always');
      },
      onFailed: async (_p, e) => {
        reports.push(e.message);
        failed.resolve();
      },
    });
    await queue.start();
    const id = await queue.send('transcribe', { transcriptionId: 't' });
    await failed.promise;
    // Once, in the users' words: an unexpected error's own text stays in the job row and the log.
    expect(reports).toEqual([
      expect.stringMatching(
        /^The server could not finish this because of an internal problem \(error id [0-9a-f-]{36}\)/,
      ),
    ]);
    expect(jobRow(db, id!)).toMatchObject({ state: 'failed', attempts: 2, last_error: 'always' });
  });

  it('runs again a job whose worker died while running it', async () => {
    const db = migratedDb();
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO jobs (job_id, name, payload, state, attempts, max_attempts, run_after, worker_id, heartbeat_at, created_at, updated_at)
       VALUES ('orphan', 'transcribe', '{"transcriptionId":"t"}', 'active', 1, 3, ?, ?, ?, ?, ?)`,
    ).run(now, `${os.hostname()}:999999999:dead`, now, now, now);
    const { queue } = setup(db);
    const ran = deferred<number>();
    queue.work('transcribe', { handle: async (_p, { attempt }) => ran.resolve(attempt) });
    await queue.start();
    expect(await ran.promise).toBe(2);
    await expect.poll(() => jobRow(db, 'orphan').state).toBe('completed');
  });

  it('puts a running job back on stop, and the next start runs it', async () => {
    const db = migratedDb();
    const first = setup(db).queue;
    const started = deferred();
    first.work('transcribe', {
      handle: (_p, { signal }) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          signal.addEventListener('abort', () => reject(abortReason(signal)));
        }),
    });
    await first.start();
    const id = await first.send('transcribe', { transcriptionId: 't' });
    await started.promise;
    await first.stop();
    expect(jobRow(db, id!)).toMatchObject({ state: 'queued', attempts: 0 });

    const second = setup(db).queue;
    const ran = deferred<number>();
    second.work('transcribe', { handle: async (_p, { attempt }) => ran.resolve(attempt) });
    await second.start();
    expect(await ran.promise).toBe(1);
  });

  it('writes nothing for a job it lost: ensureOwned throws, the completion touches no row', async () => {
    const { db, queue } = setup();
    const started = deferred();
    const release = deferred();
    let owned: unknown = 'not checked';
    queue.work('transcribe', {
      handle: async (_p, context) => {
        started.resolve();
        await release.promise;
        owned = await context.ensureOwned().then(
          () => true,
          (e: unknown) => e,
        );
      },
    });
    await queue.start();
    const id = (await queue.send('transcribe', { transcriptionId: 't' }))!;
    await started.promise;
    // Another worker took the job over (its lease had expired) and is running it.
    db.prepare(`UPDATE jobs SET worker_id = 'elsewhere:1:b', attempts = 2 WHERE job_id = ?`).run(id);
    release.resolve();
    await expect.poll(() => owned).toBeInstanceOf(JobLostError);
    await expect.poll(() => (queue as unknown as { running: Map<string, unknown> }).running.size).toBe(0);
    expect(db.prepare('SELECT state, worker_id, attempts FROM jobs WHERE job_id = ?').get(id)).toEqual({
      state: 'active',
      worker_id: 'elsewhere:1:b',
      attempts: 2,
    });
  });

  it('logs, rather than leaves unhandled, an outcome it cannot record because the database is gone', async () => {
    const { logger: log, lines } = capturedLog('error');
    const db = migratedDb();
    const queue = new SqliteJobQueue(db, { staleAfterMs: 60_000, pollIntervalMs: 20, retryBaseMs: 10, logger: log });
    queues.push(queue);
    const running = deferred();
    const release = deferred();
    queue.work('transcribe', {
      handle: async () => {
        running.resolve();
        await release.promise;
      },
    });
    await queue.start();
    await queue.send('transcribe', { transcriptionId: 't' });
    await running.promise;
    db.close();
    release.resolve();
    await expect
      .poll(() =>
        lines
          .map((line) => JSON.parse(line) as { msg?: string })
          .some((entry) => entry.msg === 'job queue could not record the outcome of a job'),
      )
      .toBe(true);
  });

  it('deletes finished job rows past the retention period, and keeps unfinished ones', async () => {
    const db = migratedDb();
    const old = new Date(Date.now() - 10 * 24 * 3600_000).toISOString();
    const insert = db.prepare(
      `INSERT INTO jobs (job_id, name, payload, state, attempts, max_attempts, run_after, created_at, updated_at) VALUES (?, 'summarize', '{}', ?, 1, 3, ?, ?, ?)`,
    );
    for (const [id, state, at] of [
      ['done-old', 'completed', old],
      ['failed-old', 'failed', old],
      ['done-new', 'completed', new Date().toISOString()],
      ['queued-old', 'queued', '9999'],
    ] as const) {
      insert.run(id, state, at, at, at);
    }
    const queue = new SqliteJobQueue(db, {
      staleAfterMs: 60_000,
      retentionMs: 7 * 24 * 3600_000,
      pollIntervalMs: 20,
      logger,
    });
    queues.push(queue);
    await queue.start();
    expect(
      (db.prepare('SELECT job_id FROM jobs ORDER BY job_id').all() as Array<{ job_id: string }>).map((r) => r.job_id),
    ).toEqual(['done-new', 'queued-old']);
  });
});
