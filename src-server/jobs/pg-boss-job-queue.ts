// Jobs on PostgreSQL through pg-boss 12 (issue 9 item 4, decision 0031): the distributed JobQueue for
// several api and worker processes on one database. pg-boss keeps its own schema (`pgboss`) beside the
// records and does what it is built for: the job rows, one unfinished job per singleton key (the
// `exclusive` policy), SKIP LOCKED claims, retries with exponential backoff and jitter, expiry and
// heartbeat timeouts (a worker that dies or freezes mid-job: its job is retried on another worker),
// retention of finished jobs. This module is the runner around it, as the SQLite queue is: it fetches
// per group of job names (the `speech` group shares one limit across two pg-boss queues, which
// pg-boss's own work() cannot), and every call after a claim is fenced to the attempt it fetched
// (pg-boss's `{ id, retryCount }`), so a worker that lost its job writes nothing more for it.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { PgBoss, type JobWithMetadata, type QueueOptions } from 'pg-boss';
// pg-boss fails a job terminally (past its remaining retries) only from a perJobResults worker's
// `deadletter` disposition; this is that statement, for a runner that fetches its own jobs.
import { deadLetterJobsByIdWithOutputs } from 'pg-boss/dist/plans.js';
import { failsAtOnce, failureLog, interruptedOnce, letRunningJobsFinish, publicFailure, revive, storedError, type StoredError } from './job-failure.js';
import {
  JobCancelledError,
  JobLostError,
  type JobContext,
  type JobDefinition,
  type JobName,
  type JobPayloads,
  type JobQueue,
  type JobResults,
  type SendOptions,
  type WaitOptions,
} from './job-queue.js';

export interface PgBossJobQueueOptions {
  /** postgres://… of the database; pg-boss installs and migrates its schema there on start. */
  connectionString: string;
  logger: Logger;
  /** A running job whose heartbeat is older than this runs again elsewhere (pg-boss's minimum is 10 s). */
  staleAfterMs: number;
  /** Finished jobs are deleted this long after they ended (0: at the next sweep). Default 7 days. */
  retentionMs?: number;
  /** How often idle workers look for jobs, and running jobs are checked for a cancel. Default 500 ms. */
  pollIntervalMs?: number;
  /** First retry delay (pg-boss counts whole seconds, at least 1); doubles each attempt, with jitter, up to 15 minutes. */
  retryBaseMs?: number;
  /** How often stalled jobs are looked for (pg-boss's supervise and monitor passes). Default: half the stale period. */
  superviseIntervalSeconds?: number;
  /** pg-boss's schema. Default `pgboss`. */
  schema?: string;
}

/** Every job name, each one pg-boss queue of the same name (exhaustive by type). */
const JOB_NAMES: Record<JobName, true> = { transcribe: true, 'openai-transcribe': true, summarize: true, 'analyze-emotion': true, translate: true, 'apply-replacements': true };
const QUEUE_NAMES = Object.keys(JOB_NAMES) as JobName[];

/** pg-boss's limit on one attempt's run time; stalls are caught by the heartbeat long before. */
const MAX_RUN_SECONDS = 24 * 3600;
const DEFAULT_RETENTION_MS = 7 * 24 * 3600_000;

/** What a job's `output` holds in pg-boss: the result once completed, the failure once failed. */
interface StoredOutput {
  result?: unknown;
  error?: StoredError;
  /** The original message of the last failure (operators read it in pgboss.job). */
  lastError?: string;
  /** pg-boss's own failures (expiry, heartbeat) are `{ value: { message } }`. */
  value?: { message?: string };
}

type StopReason = 'cancelled' | 'lost' | 'shutdown';

interface RunningJob {
  name: JobName;
  group: string;
  /** The attempt this worker holds: every later call is fenced to it. */
  attempt: { id: string; retryCount: number };
  controller: AbortController;
  done: Promise<void>;
  singletonKey: string | null;
  stop: StopReason | null;
}

const STOP_MESSAGES: Record<StopReason, string> = {
  cancelled: 'job cancelled',
  lost: 'job lost: another worker took it over',
  shutdown: 'server shutting down',
};

/** How many jobs a settle or touch changed (pg-boss declares its response as an empty interface). */
const affected = (response: object) => (response as { affected?: number }).affected ?? 0;

/** Keys made up for sends without one: `exclusive` allows one unfinished job per key, and NULL counts as one key. */
const OWN_KEY_PREFIX = 'job:';

export class PgBossJobQueue implements JobQueue {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly boss: PgBoss;
  private readonly schema: string;
  private readonly definitions = new Map<JobName, JobDefinition<JobName>>();
  private readonly groups = new Map<string, { names: JobName[]; concurrency: number; next: number }>();
  private readonly running = new Map<string, RunningJob>();
  private readonly endedHere = new Map<string, Set<() => void>>();
  /** Waiters' reads under way: stop() lets them finish, so the waiter of a job that ended here hears how. */
  private readonly checks = new Set<Promise<void>>();
  private connecting: Promise<void> | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  /** Set by stop() with a grace period: running jobs may finish, no new one is fetched. */
  private draining = false;
  /** The poll under way, which stop() lets finish before it hands back what is running. */
  private polling: Promise<void> | null = null;
  private working = false;
  private closed = false;

  constructor(private readonly options: PgBossJobQueueOptions) {
    this.schema = options.schema ?? 'pgboss';
    const superviseIntervalSeconds = options.superviseIntervalSeconds ?? Math.max(1, Math.floor(this.heartbeatSeconds / 2));
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      schema: this.schema,
      application_name: 'kikitori-queue',
      // Cron schedules are not used; expiry, heartbeat timeouts and retention are.
      schedule: false,
      superviseIntervalSeconds,
      monitorIntervalSeconds: superviseIntervalSeconds,
      // The retention sweep (hourly at most: retention is counted in days).
      maintenanceIntervalSeconds: Math.min(3600, Math.max(superviseIntervalSeconds, Math.ceil(this.deleteAfterSeconds))),
      max: 4,
    });
    this.boss.on('error', (error) => options.logger.error({ err: error }, 'job queue (pg-boss) error'));
    // Slow queries, a growing backlog, clock skew between the processes and the database.
    this.boss.on('warning', (warning) => options.logger.warn({ pgBoss: warning.data }, `job queue (pg-boss): ${warning.message}`));
  }

  private get heartbeatSeconds() {
    return Math.max(10, Math.ceil(this.options.staleAfterMs / 1000));
  }

  private get deleteAfterSeconds() {
    return Math.max(1, Math.round((this.options.retentionMs ?? DEFAULT_RETENTION_MS) / 1000));
  }

  private get pollIntervalMs() {
    return this.options.pollIntervalMs ?? 500;
  }

  /** The settings every queue has: also applied to existing queues, so a changed configuration takes effect. */
  private get queueOptions(): QueueOptions {
    return {
      expireInSeconds: MAX_RUN_SECONDS,
      heartbeatSeconds: this.heartbeatSeconds,
      deleteAfterSeconds: this.deleteAfterSeconds,
      // Queued jobs are kept until they run (pg-boss's default drops them after 14 days).
      retentionSeconds: 10 * 365 * 24 * 3600,
      retryBackoff: true,
      retryDelay: Math.max(1, Math.round((this.options.retryBaseMs ?? 5000) / 1000)),
      retryDelayMax: 15 * 60,
    };
  }

  /** pg-boss started and its queues there: once per process, for senders and workers alike. */
  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      await this.boss.start({ attempts: 5 });
      for (const name of QUEUE_NAMES) {
        if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, this.queueOptions);
        else {
          await this.boss.createQueue(name, { policy: 'exclusive', ...this.queueOptions }).catch(async (error: unknown) => {
            // Another process created it at the same moment.
            if (!(await this.boss.getQueue(name))) throw error;
          });
        }
      }
    })();
    return this.connecting;
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}) {
    await this.connect();
    const maxAttempts = options.maxAttempts ?? this.definitions.get(name)?.maxAttempts ?? 3;
    const id = await this.boss.send(name, payload as object, {
      singletonKey: options.singletonKey ?? `${OWN_KEY_PREFIX}${randomUUID()}`,
      // One attempt more than the job's own: a worker that died mid-job uses one up, and the attempt
      // past maxAttempts only records the failure (see run()), so onFailed still runs once.
      retryLimit: maxAttempts,
    });
    if (id !== null) setImmediate(() => void this.poll());
    return id;
  }

  work<N extends JobName>(name: N, definition: JobDefinition<N>) {
    this.definitions.set(name, definition);
    const group = definition.group ?? name;
    const entry = this.groups.get(group);
    if (entry) entry.names.push(name);
    else this.groups.set(group, { names: [name], concurrency: definition.concurrency ?? 1, next: 0 });
  }

  wait<N extends JobName>(name: N, jobId: string, options: WaitOptions = {}): Promise<JobResults[N]> {
    return new Promise<JobResults[N]>((resolve, reject) => {
      const signal = options.signal;
      let timer: NodeJS.Timeout | null = null;
      let settled = false;
      const listeners = this.endedHere.get(jobId) ?? new Set<() => void>();
      this.endedHere.set(jobId, listeners);
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        listeners.delete(wake);
        if (listeners.size === 0) this.endedHere.delete(jobId);
        signal?.removeEventListener('abort', onAbort);
        fn();
      };
      const onAbort = () => settle(() => reject(signal?.reason instanceof Error ? signal.reason : new Error('stopped waiting')));
      const check = async () => {
        await this.connect();
        const [job] = await this.boss.findJobs<unknown>(name, { id: jobId });
        if (!job) return settle(() => reject(new JobCancelledError(`job ${jobId} no longer exists`)));
        const output = (job.output ?? null) as StoredOutput | null;
        // A void job's result is stored as null; SQLite's waiters get undefined for it, and so do these.
        if (job.state === 'completed') {
          if (options.take && output?.result != null) await this.forgetResult(name, jobId);
          return settle(() => resolve((output?.result ?? undefined) as JobResults[N]));
        }
        if (job.state === 'failed') return settle(() => reject(revive(output?.error ?? null, output?.lastError ?? output?.value?.message ?? null)));
        if (job.state === 'cancelled') return settle(() => reject(new JobCancelledError(`job ${jobId} was cancelled`)));
        if (!settled) timer = setTimeout(wake, this.pollIntervalMs);
      };
      const wake = () => {
        if (timer) clearTimeout(timer);
        const checking = check().catch((error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))));
        this.checks.add(checking);
        void checking.finally(() => this.checks.delete(checking));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      listeners.add(wake);
      wake();
    });
  }

  /** A completed job's result, removed once its one waiter has it (WaitOptions.take). */
  private async forgetResult(name: JobName, jobId: string): Promise<void> {
    const queue = await this.boss.getQueue(name);
    await this.boss.getDb().executeSql(`UPDATE ${this.schema}.${queue?.table ?? 'job'} SET output = NULL WHERE name = $1 AND id = $2 AND state = 'completed'`, [name, jobId]);
  }

  async unfinished<N extends JobName>(name: N) {
    await this.connect();
    const queue = await this.boss.getQueue(name);
    const { rows } = await this.boss
      .getDb()
      .executeSql(`SELECT id::text AS id, data FROM ${this.schema}.${queue?.table ?? 'job'} WHERE name = $1 AND state IN ('created', 'retry', 'active')`, [name]);
    return (rows as Array<{ id: string; data: JobPayloads[N] }>).map((row) => ({ jobId: row.id, payload: row.data }));
  }

  /** For /healthz, as the SQLite queue answers: the backlog (waiting, first or again, and running jobs). */
  async check() {
    await this.connect();
    const { rows } = await this.boss
      .getDb()
      .executeSql(`SELECT state::text AS state, count(*)::int AS n FROM ${this.schema}.job WHERE state IN ('created', 'retry', 'active') GROUP BY state`);
    const counts = rows as Array<{ state: string; n: number }>;
    const of = (...states: string[]) => counts.filter((c) => states.includes(c.state)).reduce((sum, c) => sum + c.n, 0);
    return `${of('created', 'retry')} queued, ${of('active')} running`;
  }

  async cancel(singletonKey: string) {
    await this.connect();
    for (const name of QUEUE_NAMES) {
      const unfinished = (await this.boss.findJobs(name, { key: singletonKey })).filter((job) => ['created', 'retry', 'active'].includes(job.state));
      if (unfinished.length === 0) continue;
      await this.boss.cancel(
        name,
        unfinished.map((job) => job.id),
      );
      for (const job of unfinished) this.notifyEnded(job.id);
    }
    for (const [jobId, job] of this.running) {
      if (job.singletonKey === singletonKey) {
        this.abort(jobId, 'cancelled');
        await job.done;
      }
    }
  }

  async start() {
    if (this.working) return;
    await this.connect();
    this.working = true;
    this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
    void this.poll();
  }

  async stop(options: { graceMs?: number } = {}) {
    if (this.closed) return;
    const graceMs = options.graceMs ?? 0;
    if (this.working && graceMs > 0 && this.running.size > 0) {
      // As on SQLite: polls go on (heartbeats hold, a cancel still arrives), but no new job is fetched.
      this.draining = true;
      await letRunningJobsFinish([...this.running.values()], graceMs, this.options.logger);
    }
    this.closed = true;
    this.working = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    await this.polling;
    const jobs = [...this.running.entries()];
    for (const [jobId] of jobs) this.abort(jobId, 'shutdown');
    await Promise.all(jobs.map(([, job]) => job.done));
    await Promise.allSettled([...this.checks]);
    if (this.connecting) {
      await this.connecting.catch(() => undefined);
      await this.boss.stop({ graceful: true, close: true, timeout: 5000 });
    }
  }

  private abort(jobId: string, reason: StopReason) {
    const job = this.running.get(jobId);
    if (!job || job.stop) return;
    job.stop = reason;
    job.controller.abort(reason === 'lost' ? new JobLostError(STOP_MESSAGES[reason]) : new Error(STOP_MESSAGES[reason]));
  }

  /** This worker's attempt of the job is gone: cancelled (or deleted), or taken over after its heartbeat lapsed. */
  private async lostOrCancelled(jobId: string) {
    const job = this.running.get(jobId);
    if (!job) return;
    const [row] = await this.boss.findJobs(job.name, { id: jobId });
    this.abort(jobId, !row || row.state === 'cancelled' ? 'cancelled' : 'lost');
  }

  private notifyEnded(jobId: string) {
    for (const wake of this.endedHere.get(jobId) ?? []) wake();
  }

  private poll(): Promise<void> {
    if (!this.working || this.polling) return Promise.resolve();
    this.polling = (async () => {
      try {
        await this.checkRunning();
        for (const [group, entry] of this.groups) {
          while (this.working && !this.draining && [...this.running.values()].filter((job) => job.group === group).length < entry.concurrency) {
            const job = await this.fetch(entry);
            if (!job) break;
            if (!this.working || this.draining) {
              // A drain or stop began while this claim was on its way: the job was never started here.
              await this.handBack({ name: job.name as JobName, attempt: { id: job.id, retryCount: job.retryCount } });
              break;
            }
            this.run(job, group);
          }
        }
      } catch (error) {
        this.options.logger.error({ err: error }, 'job poll failed');
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  /** The next job of the group's names, starting from a different name each time so none starves. */
  private async fetch(entry: { names: JobName[]; next: number }): Promise<JobWithMetadata<unknown> | null> {
    for (let i = 0; i < entry.names.length && this.working && !this.draining; i++) {
      const name = entry.names[(entry.next + i) % entry.names.length]!;
      const [job] = await this.boss.fetch<unknown>(name, { batchSize: 1, includeMetadata: true });
      if (job) {
        entry.next = (entry.next + i + 1) % entry.names.length;
        return job;
      }
    }
    return null;
  }

  /**
   * The heartbeat of the jobs running here, fenced to their attempts: a job it no longer refreshes was
   * cancelled, or retried elsewhere after its heartbeat lapsed, and is aborted. Every poll, so that a
   * cancel from another process reaches the job within one poll interval.
   */
  private async checkRunning() {
    const byName = new Map<JobName, RunningJob[]>();
    for (const job of this.running.values()) if (!job.stop) byName.set(job.name, [...(byName.get(job.name) ?? []), job]);
    for (const [name, jobs] of byName) {
      const touched = await this.boss.touch(
        name,
        jobs.map((job) => job.attempt),
      );
      const refreshed = new Set((touched as { settled?: string[] }).settled ?? jobs.map((job) => job.attempt.id));
      for (const job of jobs) if (!refreshed.has(job.attempt.id)) await this.lostOrCancelled(job.attempt.id);
    }
  }

  /** True while this worker's attempt still holds the job (and refreshes its heartbeat). */
  private async owns(job: RunningJob): Promise<boolean> {
    return affected(await this.boss.touch(job.name, job.attempt)) > 0;
  }

  /** Fails the attempt for good, whatever retries remain. False: this worker no longer holds it. */
  private async failForGood(job: RunningJob, output: StoredOutput): Promise<boolean> {
    const queue = await this.boss.getQueue(job.name);
    const sql = deadLetterJobsByIdWithOutputs(this.schema, queue?.table ?? 'job');
    const { rows } = await this.boss.getDb().executeSql(sql, [job.name, JSON.stringify([{ id: job.attempt.id, retry_count: job.attempt.retryCount, output }])]);
    return Number((rows[0] as { count?: string | number } | undefined)?.count ?? 0) > 0;
  }

  /**
   * Gives the attempt back, as if it had never been claimed: pg-boss's restore() (state created,
   * started_on cleared, so the next claim does not count an attempt), fenced to this worker's attempt.
   */
  private async handBack(job: Pick<RunningJob, 'name' | 'attempt'>): Promise<boolean> {
    const queue = await this.boss.getQueue(job.name);
    const { rows } = await this.boss.getDb().executeSql(
      `UPDATE ${this.schema}.${queue?.table ?? 'job'} SET state = 'created', started_on = NULL, heartbeat_on = NULL, upsert_by_key = NULL
       WHERE name = $1 AND id = $2 AND retry_count = $3 AND state = 'active' RETURNING id`,
      [job.name, job.attempt.id, job.attempt.retryCount],
    );
    return rows.length > 0;
  }

  private run(fetched: JobWithMetadata<unknown>, group: string) {
    const name = fetched.name as JobName;
    const definition = this.definitions.get(name)!;
    const attempt = fetched.retryCount + 1;
    const singletonKey = fetched.singletonKey?.startsWith(OWN_KEY_PREFIX) ? null : fetched.singletonKey;
    const payload = fetched.data as JobPayloads[JobName];
    const log = this.options.logger.child({ jobId: fetched.id, job: name, attempt });
    const controller = new AbortController();
    const entry: RunningJob = { name, group, attempt: { id: fetched.id, retryCount: fetched.retryCount }, controller, done: Promise.resolve(), singletonKey, stop: null };
    this.running.set(fetched.id, entry);
    // One line per attempt, so an operator (and the cluster test) can tell which worker ran what.
    log.info({ worker: this.workerId, ...(singletonKey ? { singletonKey } : {}) }, 'job started');
    const context: JobContext = {
      jobId: fetched.id,
      attempt,
      signal: controller.signal,
      logger: log,
      ensureOwned: async () => {
        if (!(await this.owns(entry))) {
          await this.lostOrCancelled(fetched.id);
          throw new JobLostError('job lost: another worker took it over, or it was cancelled');
        }
      },
    };
    const lost = () => log.warn({ worker: this.workerId }, 'job lost to another worker or cancelled; its result is not written');
    const failed = async (error: Error) => {
      const shown = publicFailure(error);
      if (await this.failForGood(entry, { error: storedError(shown.error), lastError: error.message })) {
        log.warn({ ...failureLog(error), ...(shown.errorId ? { error_id: shown.errorId } : {}) }, 'job failed');
        await definition.onFailed?.(payload, shown.error, { jobId: fetched.id }).catch((e: unknown) => log.error({ err: e }, 'onFailed hook threw'));
      } else lost();
    };
    entry.done = (async () => {
      try {
        // Taken over after its worker died or froze: a job run once ends here, without running.
        if (definition.runsOnce && attempt > 1) return await failed(interruptedOnce());
        // The attempt pg-boss keeps for a worker that died (see send): nothing runs, the failure is recorded.
        if (attempt > fetched.retryLimit) {
          const previous = (fetched.output ?? null) as StoredOutput | null;
          return await failed(new Error(`the job's worker stopped before it finished, on its last attempt (${previous?.value?.message ?? previous?.lastError ?? 'no result'})`));
        }
        try {
          const output = await definition.handle(payload, context);
          if (affected(await this.boss.complete(name, entry.attempt, { result: output ?? null })) > 0) log.info('job completed');
          else lost();
        } catch (raw) {
          const error = raw instanceof Error ? raw : new Error(String(raw));
          const stop = entry.stop ?? (error instanceof JobLostError ? 'lost' : null);
          if (stop === 'cancelled') log.info('job cancelled');
          else if (stop === 'lost') lost();
          else if (stop === 'shutdown' && definition.runsOnce) await failed(interruptedOnce());
          else if (stop === 'shutdown') {
            if (await this.handBack(entry)) log.info('job interrupted by shutdown; queued again');
          } else if (failsAtOnce(error) || attempt >= fetched.retryLimit) await failed(error);
          else if (affected(await this.boss.fail(name, entry.attempt, { lastError: error.message })) > 0) {
            log.warn(failureLog(error), 'job failed; will retry');
          } else lost();
        }
      } catch (error) {
        log.error({ err: error }, 'job queue could not record the outcome of a job');
      } finally {
        this.running.delete(fetched.id);
        this.notifyEnded(fetched.id);
        setImmediate(() => void this.poll());
      }
    })();
  }
}
