// Jobs on PostgreSQL through pg-boss 12 (decision 0031) under the one runner (job-runner.ts, decision
// 0049), for several api and worker processes on one database. pg-boss keeps its own schema (`pgboss`)
// and does what it is built for: the job rows, one unfinished job per singleton key (the `exclusive`
// policy), SKIP LOCKED claims, retries with backoff, expiry and heartbeat timeouts (a worker that dies or
// freezes mid-job: its job is retried on another worker), retention. Every call about a claimed job is
// fenced to the attempt fetched (pg-boss's `{ id, retryCount }`).
import { randomUUID } from 'node:crypto';
import { PgBoss, type QueueOptions } from 'pg-boss';
// pg-boss fails a job terminally (past its remaining retries) only from a perJobResults worker's
// `deadletter` disposition; this is that statement, for a runner that fetches its own jobs.
import { deadLetterJobsByIdWithOutputs } from 'pg-boss/dist/plans.js';
import { revive, type StoredError } from './job-failure.js';
import { JOB_NAMES, type JobName } from './job-queue.js';
import {
  DEFAULT_RETENTION_MS,
  JobRunner,
  type ClaimedJob,
  type JobOutcome,
  type JobQueueOptions,
  type JobStore,
} from './job-runner.js';

export interface PgBossJobQueueOptions extends JobQueueOptions {
  /** postgres://… of the database; pg-boss installs and migrates its schema there on start. */
  connectionString: string;
  /** How often stalled jobs are looked for (pg-boss's supervise and monitor passes). Default: half the stale period. */
  superviseIntervalSeconds?: number;
  /** pg-boss's schema. Default `pgboss`. */
  schema?: string;
}

const UNFINISHED = ['created', 'retry', 'active'];

/** pg-boss's limit on one attempt's run time; stalls are caught by the heartbeat long before. */
const MAX_RUN_SECONDS = 24 * 3600;

/** What a job's `output` holds in pg-boss: the result once completed, the failure once failed. */
interface StoredOutput {
  result?: unknown;
  error?: StoredError;
  /** The original message of the last failure (operators read it in pgboss.job). */
  lastError?: string;
  /** pg-boss's own failures (expiry, heartbeat) are `{ value: { message } }`. */
  value?: { message?: string };
}

/** How many jobs a settle or touch changed (pg-boss declares its response as an empty interface). */
const affected = (response: object) => (response as { affected?: number }).affected ?? 0;

/** Keys made up for sends without one: `exclusive` allows one unfinished job per key, and NULL counts as one key. */
const OWN_KEY_PREFIX = 'job:';

/** The fence of every call about a claimed job: pg-boss's `{ id, retryCount }` of the attempt fetched. */
const attemptOf = (job: ClaimedJob) => ({ id: job.jobId, retryCount: job.attempt - 1 });

class PgBossJobStore implements JobStore {
  private readonly boss: PgBoss;
  private readonly schema: string;
  private connecting: Promise<void> | null = null;
  /** Per group of names, which name to fetch from first, so none starves. */
  private readonly nextName = new Map<string, number>();

  /** The settings every queue has: also applied to existing queues, so a changed configuration takes effect. */
  private readonly queueOptions: QueueOptions;

  constructor(private readonly options: PgBossJobQueueOptions) {
    this.schema = options.schema ?? 'pgboss';
    const heartbeatSeconds = Math.max(10, Math.ceil(options.staleAfterMs / 1000));
    const deleteAfterSeconds = Math.max(1, Math.round((options.retentionMs ?? DEFAULT_RETENTION_MS) / 1000));
    this.queueOptions = {
      expireInSeconds: MAX_RUN_SECONDS,
      heartbeatSeconds,
      deleteAfterSeconds,
      // Queued jobs are kept until they run (pg-boss's default drops them after 14 days).
      retentionSeconds: 10 * 365 * 24 * 3600,
      retryBackoff: true,
      retryDelay: Math.max(1, Math.round((options.retryBaseMs ?? 5000) / 1000)),
      retryDelayMax: 15 * 60,
    };
    const superviseIntervalSeconds = options.superviseIntervalSeconds ?? Math.max(1, Math.floor(heartbeatSeconds / 2));
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: this.schema,
      application_name: 'kikitori-queue',
      // Cron schedules are not used; expiry, heartbeat timeouts and retention are.
      schedule: false,
      superviseIntervalSeconds,
      monitorIntervalSeconds: superviseIntervalSeconds,
      // The retention sweep (hourly at most: retention is counted in days).
      maintenanceIntervalSeconds: Math.min(3600, Math.max(superviseIntervalSeconds, deleteAfterSeconds)),
      max: 4,
    });
    this.boss.on('error', (error) => options.logger.error({ err: error }, 'job queue (pg-boss) error'));
    // Slow queries, a growing backlog, clock skew between the processes and the database.
    this.boss.on('warning', (warning) =>
      options.logger.warn({ pgBoss: warning.data }, `job queue (pg-boss): ${warning.message}`),
    );
  }

  /** pg-boss started and its queues there: once per process, for senders and workers alike. */
  open(): Promise<void> {
    this.connecting ??= (async () => {
      await this.boss.start({ attempts: 5 });
      for (const name of JOB_NAMES) {
        if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, this.queueOptions);
        else {
          await this.boss
            .createQueue(name, { policy: 'exclusive', ...this.queueOptions })
            .catch(async (error: unknown) => {
              // Another process created it at the same moment.
              if (!(await this.boss.getQueue(name))) throw error;
            });
        }
      }
    })();
    return this.connecting;
  }

  async close() {
    if (!this.connecting) return;
    await this.connecting.catch(() => undefined);
    await this.boss.stop({ graceful: true, close: true, timeout: 5000 });
  }

  async send(name: JobName, payload: unknown, options: { singletonKey: string | null; maxAttempts: number }) {
    return this.boss.send(name, payload as object, {
      singletonKey: options.singletonKey ?? `${OWN_KEY_PREFIX}${randomUUID()}`,
      // One attempt more than the job's own: a worker that died mid-job uses one up, and the attempt
      // past maxAttempts only records the failure (ClaimedJob.exhausted), so onFailed still runs once.
      retryLimit: options.maxAttempts,
    });
  }

  /** The next job of the group's names, starting from a different name each time so none starves. */
  async claim(names: JobName[]): Promise<ClaimedJob | null> {
    const group = names.join(',');
    const next = this.nextName.get(group) ?? 0;
    for (let i = 0; i < names.length; i++) {
      const name = names[(next + i) % names.length]!;
      const [job] = await this.boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
      if (!job) continue;
      this.nextName.set(group, (next + i + 1) % names.length);
      const attempt = job.retryCount + 1;
      const previous = (job.output ?? null) as StoredOutput | null;
      const exhausted = `the job's worker stopped before it finished, on its last attempt (${previous?.value?.message ?? previous?.lastError ?? 'no result'})`;
      return {
        jobId: job.id,
        name,
        payload: job.data,
        attempt,
        maxAttempts: job.retryLimit,
        singletonKey: job.singletonKey?.startsWith(OWN_KEY_PREFIX) ? null : job.singletonKey,
        ...(attempt > job.retryLimit ? { exhausted } : {}),
      };
    }
    return null;
  }

  async hold(jobs: ClaimedJob[]) {
    const lost = new Set<string>();
    for (const name of new Set(jobs.map((job) => job.name))) {
      const ofName = jobs.filter((job) => job.name === name);
      const touched = await this.boss.touch(name, ofName.map(attemptOf));
      const refreshed = new Set((touched as { settled?: string[] }).settled ?? ofName.map((job) => job.jobId));
      for (const job of ofName) if (!refreshed.has(job.jobId)) lost.add(job.jobId);
    }
    return lost;
  }

  async complete(job: ClaimedJob, result: unknown) {
    return affected(await this.boss.complete(job.name, attemptOf(job), { result: result ?? null })) > 0;
  }

  /** pg-boss's dead-letter statement: the attempt fails whatever retries remain. */
  async fail(job: ClaimedJob, error: StoredError, lastError: string) {
    const output: StoredOutput = { error, lastError };
    const sql = deadLetterJobsByIdWithOutputs(this.schema, await this.table(job.name));
    const { rows } = await this.boss
      .getDb()
      .executeSql(sql, [job.name, JSON.stringify([{ id: job.jobId, retry_count: job.attempt - 1, output }])]);
    return Number((rows[0] as { count?: string | number } | undefined)?.count ?? 0) > 0;
  }

  async retry(job: ClaimedJob, lastError: string) {
    return affected(await this.boss.fail(job.name, attemptOf(job), { lastError })) > 0;
  }

  /** pg-boss's restore() (state created, started_on cleared, so the next claim counts no attempt), fenced to the attempt. */
  async handBack(job: ClaimedJob) {
    const sql = `UPDATE TABLE SET state = 'created', started_on = NULL, heartbeat_on = NULL, upsert_by_key = NULL
                 WHERE name = $1 AND id = $2 AND retry_count = $3 AND state = 'active' RETURNING id`;
    return (await this.sql(job.name, sql, [job.name, job.jobId, job.attempt - 1])).length > 0;
  }

  async cancel(singletonKey: string) {
    const cancelled: string[] = [];
    for (const name of JOB_NAMES) {
      const ids = (await this.boss.findJobs(name, { key: singletonKey }))
        .filter((job) => UNFINISHED.includes(job.state))
        .map((job) => job.id);
      if (ids.length === 0) continue;
      await this.boss.cancel(name, ids);
      cancelled.push(...ids);
    }
    return cancelled;
  }

  async outcome(name: JobName, jobId: string, take: boolean): Promise<JobOutcome> {
    const [job] = await this.boss.findJobs<unknown>(name, { id: jobId });
    if (!job) return { state: 'gone' };
    const output = (job.output ?? null) as StoredOutput | null;
    if (job.state === 'completed') {
      // The result, removed once its one waiter has it (WaitOptions.take).
      if (take && output?.result != null)
        await this.sql(name, `UPDATE TABLE SET output = NULL WHERE name = $1 AND id = $2 AND state = 'completed'`, [
          name,
          jobId,
        ]);
      // A void job's result is stored as null; SQLite's waiters get undefined for it, and so do these.
      return { state: 'completed', result: output?.result ?? undefined };
    }
    if (job.state === 'failed')
      return {
        state: 'failed',
        error: revive(output?.error ?? null, output?.lastError ?? output?.value?.message ?? null),
      };
    return { state: job.state === 'cancelled' ? 'cancelled' : 'pending' };
  }

  async unfinished(name: JobName) {
    const rows = await this.sql(
      name,
      `SELECT id::text AS id, data FROM TABLE WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
      [name],
    );
    return (rows as Array<{ id: string; data: unknown }>).map((row) => ({ jobId: row.id, payload: row.data }));
  }

  async backlog() {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT state::text AS state, count(*)::int AS n FROM ${this.schema}.job WHERE state IN ('created', 'retry', 'active') GROUP BY state`,
      );
    const counts = rows as Array<{ state: string; n: number }>;
    const of = (...states: string[]) => counts.filter((c) => states.includes(c.state)).reduce((sum, c) => sum + c.n, 0);
    return { queued: of('created', 'retry'), running: of('active') };
  }

  /** pg-boss keeps each queue's jobs in a table of its own. */
  private async table(name: JobName) {
    return (await this.boss.getQueue(name))?.table ?? 'job';
  }

  /** A statement on the queue's table, which `TABLE` in the text names. */
  private async sql(name: JobName, text: string, params: unknown[]): Promise<unknown[]> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(text.replace('TABLE', `${this.schema}.${await this.table(name)}`), params);
    return rows as unknown[];
  }
}

/** The JobQueue on PostgreSQL: the one runner over pg-boss. */
export class PgBossJobQueue extends JobRunner {
  constructor(options: PgBossJobQueueOptions) {
    super(() => new PgBossJobStore(options), options);
  }
}
