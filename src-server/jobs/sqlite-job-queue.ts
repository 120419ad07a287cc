// Jobs as rows in SQLite (decisions 0005, 0028). A job is claimed by setting it active with this worker's
// id (`worker_id`, pg-boss's locked_by) and a heartbeat; every later update of it checks that id, and an
// update that touches no row means the worker lost the job (its lease expired and another worker took
// it, or it was cancelled): the job is aborted and nothing more is written for it. On their own timer,
// active jobs whose worker is gone (dead pid on this host, or a stale heartbeat) are queued again, and
// finished rows older than the retention period are deleted. Failures retry with exponential backoff
// and jitter, except an EngineError that says retrying cannot help (see failsAtOnce). A cancel reaches
// the job wherever it runs: each worker checks its running jobs' rows on every poll.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
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
import { backoffDelay } from '../../src-shared/backoff.js';

// Kept importable from here for existing callers; the code lives in job-failure.ts, shared with the pg-boss queue.
export { failsAtOnce, publicFailure } from './job-failure.js';

interface JobRow {
  job_id: string;
  name: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  singleton_key: string | null;
}

export interface SqliteJobQueueOptions {
  staleAfterMs: number;
  pollIntervalMs?: number;
  /** First retry delay; doubles each attempt (with jitter, up to 15 minutes). */
  retryBaseMs?: number;
  /** Finished job rows are deleted this long after they ended. Default 7 days. */
  retentionMs?: number;
  logger: Logger;
}

const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a running job's signal was aborted; decides what the runner writes afterwards. */
type StopReason = 'cancelled' | 'lost' | 'shutdown';

interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
  name: JobName;
  group: string;
  singletonKey: string | null;
  stop: StopReason | null;
}

const DEFAULT_RETENTION_MS = 7 * 24 * 3600_000;

export class SqliteJobQueue implements JobQueue {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly definitions = new Map<JobName, JobDefinition<JobName>>();
  /** Group -> its job names and concurrency. */
  private readonly groups = new Map<string, { names: JobName[]; concurrency: number }>();
  private readonly running = new Map<string, RunningJob>();
  /** Wakes the waiters of jobs that end in this process at once; others find out by polling the row. */
  private readonly endedHere = new Map<string, Set<() => void>>();
  private pollTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private recoveryTimer: NodeJS.Timeout | null = null;
  private started = false;
  /** Stopping with a grace period: running jobs go on, no new one is claimed. */
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly options: SqliteJobQueueOptions,
  ) {}

  private get pollIntervalMs() {
    return this.options.pollIntervalMs ?? 500;
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}) {
    const id = randomUUID();
    const now = new Date().toISOString();
    const maxAttempts = options.maxAttempts ?? this.definitions.get(name)?.maxAttempts ?? 3;
    const result = this.db
      .prepare(
        `INSERT INTO jobs (job_id, name, payload, state, singleton_key, max_attempts, run_after, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(id, name, JSON.stringify(payload), options.singletonKey ?? null, maxAttempts, now, now, now);
    if (result.changes === 0) return null;
    setImmediate(() => this.poll());
    return id;
  }

  work<N extends JobName>(name: N, definition: JobDefinition<N>) {
    this.definitions.set(name, definition);
    const group = definition.group ?? name;
    const entry = this.groups.get(group);
    if (entry) entry.names.push(name);
    else this.groups.set(group, { names: [name], concurrency: definition.concurrency ?? 1 });
  }

  wait<N extends JobName>(_name: N, jobId: string, options: WaitOptions = {}): Promise<JobResults[N]> {
    return new Promise<JobResults[N]>((resolve, reject) => {
      const signal = options.signal;
      let timer: NodeJS.Timeout | null = null;
      const listeners = this.endedHere.get(jobId) ?? new Set<() => void>();
      this.endedHere.set(jobId, listeners);
      const cleanup = () => {
        if (timer) clearTimeout(timer);
        listeners.delete(check);
        if (listeners.size === 0) this.endedHere.delete(jobId);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        cleanup();
        reject(signal?.reason instanceof Error ? signal.reason : new Error('stopped waiting'));
      };
      const settle = (fn: () => void) => {
        cleanup();
        fn();
      };
      const check = () => {
        if (timer) clearTimeout(timer);
        const row = this.db.prepare(`SELECT state, output, error, last_error FROM jobs WHERE job_id = ?`).get(jobId) as
          | { state: string; output: string | null; error: string | null; last_error: string | null }
          | undefined;
        if (!row) return settle(() => reject(new JobCancelledError(`job ${jobId} no longer exists`)));
        if (row.state === 'completed') {
          if (options.take && row.output !== null) this.db.prepare(`UPDATE jobs SET output = NULL WHERE job_id = ?`).run(jobId);
          return settle(() => resolve((row.output === null ? undefined : JSON.parse(row.output)) as JobResults[N]));
        }
        if (row.state === 'failed') {
          return settle(() => reject(revive(row.error === null ? null : (JSON.parse(row.error) as StoredError), row.last_error)));
        }
        if (row.state === 'cancelled') return settle(() => reject(new JobCancelledError(`job ${jobId} was cancelled`)));
        timer = setTimeout(check, this.pollIntervalMs);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      listeners.add(check);
      check();
    });
  }

  async unfinished<N extends JobName>(name: N) {
    const rows = this.db.prepare(`SELECT job_id, payload FROM jobs WHERE name = ? AND state IN ('queued', 'active')`).all(name) as Array<{ job_id: string; payload: string }>;
    return rows.map((row) => ({ jobId: row.job_id, payload: JSON.parse(row.payload) as JobPayloads[N] }));
  }

  async cancel(singletonKey: string) {
    const now = new Date().toISOString();
    const ids = this.db
      .prepare(`UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE singleton_key = ? AND state IN ('queued', 'active') RETURNING job_id`)
      .all(now, singletonKey) as Array<{ job_id: string }>;
    for (const { job_id } of ids) this.notifyEnded(job_id);
    for (const [jobId, job] of this.running) {
      if (job.singletonKey === singletonKey) {
        this.abort(jobId, 'cancelled');
        await job.done;
      }
    }
  }

  async start() {
    if (this.started) return;
    this.started = true;
    this.draining = false;
    this.recover();
    this.pollTimer = setInterval(() => this.poll(), this.pollIntervalMs);
    const beat = Math.max(250, Math.floor(this.options.staleAfterMs / 4));
    this.heartbeatTimer = setInterval(() => this.heartbeat(), beat);
    // Its own timer, so that a worker busy with long jobs (or with none) still recovers other workers' orphans.
    this.recoveryTimer = setInterval(() => this.recover(), Math.max(beat, Math.floor(this.options.staleAfterMs / 2)));
    this.poll();
  }

  async stop(options: { graceMs?: number } = {}) {
    const graceMs = options.graceMs ?? 0;
    if (this.started && graceMs > 0 && this.running.size > 0) {
      // Polls and heartbeats go on meanwhile, so a cancel still reaches the running jobs and their leases hold.
      this.draining = true;
      await letRunningJobsFinish([...this.running.values()], graceMs, this.options.logger);
    }
    this.started = false;
    for (const timer of [this.pollTimer, this.heartbeatTimer, this.recoveryTimer]) if (timer) clearInterval(timer);
    const jobs = [...this.running.entries()];
    for (const [jobId] of jobs) this.abort(jobId, 'shutdown');
    await Promise.all(jobs.map(([, j]) => j.done));
  }

  async check() {
    const counts = this.db.prepare(`SELECT state, count(*) AS n FROM jobs WHERE state IN ('queued', 'active') GROUP BY state`).all() as Array<{
      state: string;
      n: number;
    }>;
    const of = (state: string) => counts.find((c) => c.state === state)?.n ?? 0;
    return `${of('queued')} queued, ${of('active')} running`;
  }

  private recover() {
    try {
      this.recoverOrphans();
      this.purgeFinished();
    } catch (error) {
      this.options.logger.error({ err: error }, 'job recovery failed');
    }
  }

  /** Active jobs whose worker is gone go back to the queue. */
  private recoverOrphans() {
    const staleBefore = new Date(Date.now() - this.options.staleAfterMs).toISOString();
    const active = this.db.prepare(`SELECT job_id, worker_id, heartbeat_at FROM jobs WHERE state = 'active'`).all() as Array<{
      job_id: string;
      worker_id: string | null;
      heartbeat_at: string | null;
    }>;
    // Checked against the worker seen, so a heartbeat that lands in between keeps the job where it is.
    const requeue = this.db.prepare(
      `UPDATE jobs SET state = 'queued', worker_id = NULL, run_after = ?, updated_at = ?
       WHERE job_id = ? AND state = 'active' AND worker_id IS ? AND heartbeat_at IS ?`,
    );
    for (const job of active) {
      if (job.worker_id === this.workerId && this.running.has(job.job_id)) continue;
      const [host, pid] = (job.worker_id ?? '').split(':');
      const deadHere = host === os.hostname() && !processAlive(Number(pid));
      const stale = (job.heartbeat_at ?? '') < staleBefore;
      if (deadHere || stale) {
        const now = new Date().toISOString();
        if (requeue.run(now, now, job.job_id, job.worker_id, job.heartbeat_at).changes > 0) {
          this.options.logger.warn({ jobId: job.job_id, worker: job.worker_id }, 'job orphaned by a dead or silent worker; queued again');
        }
      }
    }
  }

  private purgeFinished() {
    const before = new Date(Date.now() - (this.options.retentionMs ?? DEFAULT_RETENTION_MS)).toISOString();
    const { changes } = this.db.prepare(`DELETE FROM jobs WHERE state IN ('completed', 'failed', 'cancelled') AND updated_at < ?`).run(before);
    if (changes > 0) this.options.logger.info({ deleted: changes }, 'finished job rows past retention deleted');
  }

  /** Refreshes the lease of each running job; one whose row is no longer ours is aborted. */
  private heartbeat() {
    const touch = this.db.prepare(`UPDATE jobs SET heartbeat_at = ? WHERE job_id = ? AND worker_id = ? AND state = 'active'`);
    for (const jobId of this.running.keys()) {
      if (touch.run(new Date().toISOString(), jobId, this.workerId).changes === 0) this.lostOrCancelled(jobId);
    }
  }

  /** The job's row says it is no longer this worker's: cancelled, or taken over. */
  private lostOrCancelled(jobId: string) {
    const row = this.db.prepare(`SELECT state FROM jobs WHERE job_id = ?`).get(jobId) as { state: string } | undefined;
    this.abort(jobId, !row || row.state === 'cancelled' ? 'cancelled' : 'lost');
  }

  private abort(jobId: string, reason: StopReason) {
    const job = this.running.get(jobId);
    if (!job || job.stop) return;
    job.stop = reason;
    const messages: Record<StopReason, string> = {
      cancelled: 'job cancelled',
      lost: 'job lost: another worker took it over',
      shutdown: 'server shutting down',
    };
    job.controller.abort(reason === 'lost' ? new JobLostError(messages[reason]) : new Error(messages[reason]));
  }

  private poll() {
    if (!this.started) return;
    // A cancel or a takeover by another process shows in the rows of the jobs running here.
    if (this.running.size > 0) {
      const ours = this.db.prepare(`SELECT 1 FROM jobs WHERE job_id = ? AND worker_id = ? AND state = 'active'`);
      for (const [jobId, job] of this.running) if (!job.stop && !ours.get(jobId, this.workerId)) this.lostOrCancelled(jobId);
    }
    if (this.draining) return;
    for (const [group, { names, concurrency }] of this.groups) {
      while ([...this.running.values()].filter((j) => j.group === group).length < concurrency) {
        const row = this.claim(names);
        if (!row) break;
        this.run(row, group);
      }
    }
  }

  private claim(names: JobName[]): JobRow | null {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `SELECT job_id, name, payload, attempts, max_attempts, singleton_key FROM jobs
           WHERE name IN (${names.map(() => '?').join(', ')}) AND state = 'queued' AND run_after <= ? ORDER BY run_after, created_at LIMIT 1`,
        )
        .get(...names, new Date().toISOString()) as JobRow | undefined;
      if (!row) return null;
      const now = new Date().toISOString();
      this.db
        .prepare(`UPDATE jobs SET state = 'active', worker_id = ?, attempts = attempts + 1, heartbeat_at = ?, updated_at = ? WHERE job_id = ?`)
        .run(this.workerId, now, now, row.job_id);
      return { ...row, attempts: row.attempts + 1 };
    }).immediate();
  }

  /** An update of a job this worker claimed: only while it still owns it. False: it does not. */
  private updateOwned(jobId: string, set: string, ...values: unknown[]): boolean {
    return (
      this.db
        .prepare(`UPDATE jobs SET ${set}, updated_at = ? WHERE job_id = ? AND worker_id = ? AND state = 'active'`)
        .run(...values, new Date().toISOString(), jobId, this.workerId).changes > 0
    );
  }

  private notifyEnded(jobId: string) {
    for (const wake of this.endedHere.get(jobId) ?? []) wake();
  }

  private run(row: JobRow, group: string) {
    const definition = this.definitions.get(row.name as JobName)!;
    const controller = new AbortController();
    const payload = JSON.parse(row.payload) as JobPayloads[JobName];
    const log = this.options.logger.child({ jobId: row.job_id, job: row.name, attempt: row.attempts });
    const context: JobContext = {
      jobId: row.job_id,
      attempt: row.attempts,
      signal: controller.signal,
      logger: log,
      ensureOwned: async () => {
        if (!this.updateOwned(row.job_id, 'heartbeat_at = ?', new Date().toISOString())) {
          this.lostOrCancelled(row.job_id);
          throw new JobLostError('job lost: another worker took it over, or it was cancelled');
        }
      },
    };
    const entry: RunningJob = { controller, done: Promise.resolve(), name: row.name as JobName, group, singletonKey: row.singleton_key, stop: null };
    this.running.set(row.job_id, entry);
    const lost = () => log.warn({ worker: this.workerId }, 'job lost to another worker or cancelled; its result is not written');
    const failForGood = async (error: Error) => {
      const shown = publicFailure(error);
      if (this.updateOwned(row.job_id, `state = 'failed', last_error = ?, error = ?`, error.message, JSON.stringify(storedError(shown.error)))) {
        log.warn({ ...failureLog(error), ...(shown.errorId ? { error_id: shown.errorId } : {}) }, 'job failed');
        await definition.onFailed?.(payload, shown.error, { jobId: row.job_id }).catch((e: unknown) => log.error({ err: e }, 'onFailed hook threw'));
      } else lost();
    };
    entry.done = (async () => {
      try {
        // Taken over after its worker died (recoverOrphans): a job run once ends here, without running.
        if (definition.runsOnce && row.attempts > 1) return await failForGood(interruptedOnce());
        const output = await definition.handle(payload, context);
        if (this.updateOwned(row.job_id, `state = 'completed', last_error = NULL, output = ?`, output === undefined ? null : JSON.stringify(output))) {
          log.info('job completed');
        } else lost();
      } catch (raw) {
        const error = raw instanceof Error ? raw : new Error(String(raw));
        const stop = entry.stop ?? (error instanceof JobLostError ? 'lost' : null);
        if (stop === 'cancelled') {
          log.info('job cancelled');
        } else if (stop === 'lost') {
          lost();
        } else if (stop === 'shutdown' && definition.runsOnce) {
          await failForGood(interruptedOnce());
        } else if (stop === 'shutdown') {
          // Give the attempt back and let the next start run it.
          if (this.updateOwned(row.job_id, `state = 'queued', worker_id = NULL, attempts = attempts - 1`)) log.info('job interrupted by shutdown; queued again');
        } else if (failsAtOnce(error) || row.attempts >= row.max_attempts) {
          await failForGood(error);
        } else {
          const delay = backoffDelay(row.attempts - 1, { baseDelayMs: this.options.retryBaseMs ?? 5000, maxDelayMs: 15 * 60_000 });
          if (this.updateOwned(row.job_id, `state = 'queued', worker_id = NULL, run_after = ?, last_error = ?`, isoIn(delay), error.message)) {
            log.warn({ ...failureLog(error), retryInMs: delay }, 'job failed; will retry');
          } else lost();
        }
      } finally {
        this.running.delete(row.job_id);
        this.notifyEnded(row.job_id);
        setImmediate(() => this.poll());
      }
    })();
  }
}
