// The pg-boss queue on a real PostgreSQL (test/support/postgres.ts): the JobQueue contract, then what
// only it does: its settings in pg-boss's queues (retention, heartbeat, retry backoff), the retention sweep, writing nothing
// for an attempt it lost, and the attempt pg-boss keeps for a worker that died on the last one.
// Its two-worker-process guarantees are in test/integration/server/pg-boss-queue-workers.test.ts.
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JobLostError } from '../../../../src-server/jobs/job-queue.js';
import { PgBossJobQueue, type PgBossJobQueueOptions } from '../../../../src-server/jobs/pg-boss-job-queue.js';
import { runCluster } from '../../../support/postgres.js';
import { deferred, describeJobQueueContract, type ContractState } from '../../../support/job-queue-contract.js';

const logger = pino({ level: 'silent' });
const server = runCluster;
const clients: pg.Client[] = [];
const queues: PgBossJobQueue[] = [];

afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.stop()));
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end()));
});

async function sql(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

const STATES: Record<string, ContractState> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

function queueOn(url: string, options: Partial<PgBossJobQueueOptions> = {}) {
  const queue = new PgBossJobQueue({
    connectionString: url,
    staleAfterMs: 60_000,
    pollIntervalMs: 50,
    retryBaseMs: 10,
    logger,
    ...options,
  });
  queues.push(queue);
  return queue;
}

describeJobQueueContract('PgBossJobQueue', {
  async open() {
    const url = await server.createDatabase('kikitori_queue');
    const client = await sql(url);
    return {
      queue: (options) =>
        new PgBossJobQueue({
          connectionString: url,
          staleAfterMs: 60_000,
          pollIntervalMs: 50,
          retryBaseMs: 10,
          logger: options?.logger ?? logger,
        }),
      state: async (id) => {
        const { rows } = await client.query<{ state: string }>('SELECT state FROM pgboss.job WHERE id = $1', [id]);
        return rows[0] ? STATES[rows[0].state] : undefined;
      },
    };
  },
});

describe('PgBossJobQueue: on pg-boss', () => {
  it("keeps its settings in pg-boss's queues: one unfinished job per key, heartbeat, retention, backoff", async () => {
    const url = await server.createDatabase('kikitori_queue');
    const queue = queueOn(url, { staleAfterMs: 30_000, retentionMs: 3 * 24 * 3600_000, retryBaseMs: 5000 });
    await queue.send('summarize', { transcriptionId: 't' });
    const { rows } = await (
      await sql(url)
    ).query(
      'SELECT name, policy, heartbeat_seconds, deletion_seconds, retry_backoff, retry_delay, retry_delay_max FROM pgboss.queue ORDER BY name',
    );
    expect(rows.map((r: { name: string }) => r.name)).toEqual([
      'analyze-emotion',
      'apply-replacements',
      'openai-transcribe',
      'summarize',
      'transcribe',
      'translate',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({
        policy: 'exclusive',
        heartbeat_seconds: 30,
        deletion_seconds: 3 * 24 * 3600,
        retry_backoff: true,
        retry_delay: 5,
        retry_delay_max: 900,
      });
    }
  });

  it('applies a changed retention to queues that exist', async () => {
    const url = await server.createDatabase('kikitori_queue');
    await queueOn(url, { retentionMs: 7 * 24 * 3600_000 }).send('summarize', { transcriptionId: 't' });
    await queueOn(url, { retentionMs: 24 * 3600_000 }).send('summarize', { transcriptionId: 'u' });
    const { rows } = await (await sql(url)).query(`SELECT deletion_seconds FROM pgboss.queue WHERE name = 'summarize'`);
    expect(rows).toEqual([{ deletion_seconds: 24 * 3600 }]);
  });

  it('deletes finished jobs past the retention period, and keeps unfinished ones', async () => {
    const url = await server.createDatabase('kikitori_queue');
    const queue = queueOn(url, { retentionMs: 1000, superviseIntervalSeconds: 1 });
    queue.work('translate', { handle: async () => undefined });
    await queue.start();
    const done = (await queue.send('translate', { transcriptionId: 't', language: 'en' }))!;
    await queue.wait('translate', done);
    // Nobody works on summaries here: this one stays queued.
    const waiting = (await queue.send('summarize', { transcriptionId: 't' }))!;
    const client = await sql(url);
    const ids = async () =>
      (await client.query<{ id: string }>('SELECT id FROM pgboss.job ORDER BY id')).rows.map((r) => r.id);
    await expect.poll(ids, { timeout: 60_000, interval: 250 }).toEqual([waiting]);
  });

  it('writes nothing for an attempt it lost: ensureOwned throws, the completion changes nothing', async () => {
    const url = await server.createDatabase('kikitori_queue');
    const queue = queueOn(url);
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
        return undefined;
      },
    });
    await queue.start();
    const id = (await queue.send('transcribe', { transcriptionId: 't' }))!;
    await started.promise;
    // Another worker holds the job now: its heartbeat lapsed, pg-boss retried it, and it was claimed again.
    const client = await sql(url);
    await client.query('UPDATE pgboss.job SET retry_count = retry_count + 1 WHERE id = $1', [id]);
    release.resolve();
    await expect.poll(() => owned).toBeInstanceOf(JobLostError);
    const { rows } = await client.query('SELECT state, retry_count, output FROM pgboss.job WHERE id = $1', [id]);
    expect(rows).toEqual([{ state: 'active', retry_count: 1, output: null }]);
  });

  it('fails for good, calling onFailed once, a job whose worker died on its last attempt', async () => {
    const url = await server.createDatabase('kikitori_queue');
    const queue = queueOn(url);
    const failed = deferred<Error>();
    let runs = 0;
    queue.work('openai-transcribe', {
      maxAttempts: 1,
      handle: async () => {
        runs += 1;
        return { text: 'never' } as never;
      },
      onFailed: async (_p, error) => failed.resolve(error),
    });
    const id = (await queue.send('openai-transcribe', {
      audioKey: 'a',
      engine: 'e',
      language: 'en',
      task: 'transcribe',
      model: 'm',
      vocabulary: [],
      teamId: 't',
      dictionaryId: null,
      speakers: null,
    }))!;
    // What pg-boss leaves when the worker of attempt 1 stopped heartbeating: the job in retry, its one spare attempt left.
    await (
      await sql(url)
    ).query(
      `UPDATE pgboss.job SET state = 'retry', started_on = now(), output = '{"value":{"message":"job heartbeat timeout"}}' WHERE id = $1`,
      [id],
    );
    await queue.start();
    expect((await failed.promise).message).toMatch(/internal problem \(error id/);
    expect(runs).toBe(0);
    await expect(queue.wait('openai-transcribe', id)).rejects.toThrow(/internal problem/);
  });
});
