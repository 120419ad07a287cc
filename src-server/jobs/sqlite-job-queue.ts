// Jobs as rows in SQLite. A job is claimed by setting it active with this worker's id and a heartbeat.
// At start, active jobs whose worker is gone (dead pid on this host, or a stale heartbeat) are queued
// again: a job running when the process died runs again. Failures retry with exponential backoff,
// except an EngineError that says retrying cannot help (see failsAtOnce).
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { EngineError } from '../domain/engine-error.js';
import type { JobContext, JobDefinition, JobName, JobPayloads, JobQueue, SendOptions } from './job-queue.js';
import { backoffDelay } from '../../src-shared/backoff.js';

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
  logger: Logger;
}

const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * The one place a failure becomes "fail now" or "try again". An engine that says the input is bad, the
 * request unsupported or the engine unavailable will say so again on every attempt; a transient
 * EngineError and any other error (a crash, a full disk) may pass, so they retry.
 */
export function failsAtOnce(error: unknown): boolean {
  return error instanceof EngineError && !error.retryable;
}

/** Log fields for a failure: an EngineError's kind and its detail, which the user-facing message leaves out. */
function failureLog(error: Error): Record<string, unknown> {
  return error instanceof EngineError ? { err: error, engineError: error.kind, detail: error.detail } : { err: error };
}

/**
 * What users see of a job that failed for good: an EngineError's own message (written for them), or for
 * anything else (a bug, the database, the disk) a stable sentence with an error id that the log line
 * of the same failure carries, so internal details never reach failure_reason.
 */
export function publicFailure(error: Error): { error: Error; errorId: string | null } {
  if (error instanceof EngineError) return { error, errorId: null };
  const errorId = randomUUID();
  return {
    error: new Error(
      `The server could not finish this because of an internal problem (error id ${errorId}). Try again; if it keeps happening, tell the server's administrator, quoting the error id.`,
    ),
    errorId,
  };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class SqliteJobQueue implements JobQueue {
  private readonly workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly definitions = new Map<JobName, JobDefinition<JobName>>();
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void>; name: JobName; singletonKey: string | null }>();
  private readonly cancelled = new Set<string>();
  private pollTimer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly options: SqliteJobQueueOptions,
  ) {}

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}) {
    const id = randomUUID();
    const now = new Date().toISOString();
    const maxAttempts = this.definitions.get(name)?.maxAttempts ?? 3;
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
  }

  async cancel(singletonKey: string) {
    const now = new Date().toISOString();
    this.db
      .prepare(`UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE singleton_key = ? AND state IN ('queued', 'active')`)
      .run(now, singletonKey);
    for (const [jobId, job] of this.running) {
      if (job.singletonKey === singletonKey) {
        this.cancelled.add(jobId);
        job.controller.abort(new Error('job cancelled'));
        await job.done;
      }
    }
  }

  async start() {
    if (this.started) return;
    this.started = true;
    this.recoverOrphans();
    const interval = this.options.pollIntervalMs ?? 500;
    this.pollTimer = setInterval(() => this.poll(), interval);
    this.heartbeatTimer = setInterval(() => this.heartbeat(), Math.max(250, Math.floor(this.options.staleAfterMs / 4)));
    this.poll();
  }

  async stop() {
    this.started = false;
    if (this.pollTimer) clearInterval(this.pollTimer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort(new Error('server shutting down'));
    await Promise.all(jobs.map((j) => j.done));
  }

  /** Active jobs whose worker is gone go back to the queue. */
  private recoverOrphans() {
    const staleBefore = new Date(Date.now() - this.options.staleAfterMs).toISOString();
    const active = this.db.prepare(`SELECT job_id, worker_id, heartbeat_at FROM jobs WHERE state = 'active'`).all() as Array<{
      job_id: string;
      worker_id: string | null;
      heartbeat_at: string | null;
    }>;
    const requeue = this.db.prepare(
      `UPDATE jobs SET state = 'queued', worker_id = NULL, run_after = ?, updated_at = ? WHERE job_id = ? AND state = 'active'`,
    );
    for (const job of active) {
      const [host, pid] = (job.worker_id ?? '').split(':');
      const deadHere = host === os.hostname() && !processAlive(Number(pid));
      const stale = (job.heartbeat_at ?? '') < staleBefore;
      if (deadHere || stale) {
        const now = new Date().toISOString();
        requeue.run(now, now, job.job_id);
        this.options.logger.warn({ jobId: job.job_id, worker: job.worker_id }, 'job orphaned by a dead worker; queued again');
      }
    }
  }

  private heartbeat() {
    if (this.running.size === 0) return;
    this.db
      .prepare(`UPDATE jobs SET heartbeat_at = ? WHERE worker_id = ? AND state = 'active'`)
      .run(new Date().toISOString(), this.workerId);
    // Another server process may have died holding jobs; pick them up without waiting for a restart.
    this.recoverOrphans();
  }

  private poll() {
    if (!this.started) return;
    for (const [name, definition] of this.definitions) {
      const limit = definition.concurrency ?? 1;
      while ([...this.running.values()].filter((j) => j.name === name).length < limit) {
        const row = this.claim(name);
        if (!row) break;
        this.run(row, definition);
      }
    }
  }

  private claim(name: JobName): JobRow | null {
    return this.db.transaction(() => {
      const row = this.db
        .prepare(
          `SELECT job_id, name, payload, attempts, max_attempts, singleton_key FROM jobs
           WHERE name = ? AND state = 'queued' AND run_after <= ? ORDER BY run_after, created_at LIMIT 1`,
        )
        .get(name, new Date().toISOString()) as JobRow | undefined;
      if (!row) return null;
      const now = new Date().toISOString();
      this.db
        .prepare(`UPDATE jobs SET state = 'active', worker_id = ?, attempts = attempts + 1, heartbeat_at = ?, updated_at = ? WHERE job_id = ?`)
        .run(this.workerId, now, now, row.job_id);
      return { ...row, attempts: row.attempts + 1 };
    }).immediate();
  }

  private run(row: JobRow, definition: JobDefinition<JobName>) {
    const controller = new AbortController();
    const payload = JSON.parse(row.payload) as JobPayloads[JobName];
    const log = this.options.logger.child({ jobId: row.job_id, job: row.name, attempt: row.attempts });
    const context: JobContext = { jobId: row.job_id, attempt: row.attempts, signal: controller.signal, logger: log };
    const done = (async () => {
      try {
        await definition.handle(payload, context);
        this.finish(row.job_id, 'completed', null);
        log.info('job completed');
      } catch (raw) {
        const error = raw instanceof Error ? raw : new Error(String(raw));
        if (this.cancelled.delete(row.job_id)) {
          log.info('job cancelled');
        } else if (controller.signal.aborted) {
          // Shutdown: give the attempt back and let the next start run it.
          this.db
            .prepare(`UPDATE jobs SET state = 'queued', worker_id = NULL, attempts = attempts - 1, updated_at = ? WHERE job_id = ?`)
            .run(new Date().toISOString(), row.job_id);
          log.info('job interrupted by shutdown; queued again');
        } else if (failsAtOnce(error) || row.attempts >= row.max_attempts) {
          this.finish(row.job_id, 'failed', error.message);
          const shown = publicFailure(error);
          log.warn({ ...failureLog(error), ...(shown.errorId ? { error_id: shown.errorId } : {}) }, 'job failed');
          await definition.onFailed?.(payload, shown.error).catch((e: unknown) => log.error({ err: e }, 'onFailed hook threw'));
        } else {
          const delay = backoffDelay(row.attempts - 1, { baseDelayMs: this.options.retryBaseMs ?? 5000, maxDelayMs: 15 * 60_000 });
          this.db
            .prepare(`UPDATE jobs SET state = 'queued', worker_id = NULL, run_after = ?, last_error = ?, updated_at = ? WHERE job_id = ?`)
            .run(isoIn(delay), error.message, new Date().toISOString(), row.job_id);
          log.warn({ ...failureLog(error), retryInMs: delay }, 'job failed; will retry');
        }
      } finally {
        this.running.delete(row.job_id);
        setImmediate(() => this.poll());
      }
    })();
    this.running.set(row.job_id, { controller, done, name: row.name as JobName, singletonKey: row.singleton_key });
  }

  private finish(jobId: string, state: 'completed' | 'failed', lastError: string | null) {
    this.db
      .prepare(`UPDATE jobs SET state = ?, last_error = ?, worker_id = NULL, updated_at = ? WHERE job_id = ? AND state = 'active'`)
      .run(state, lastError, new Date().toISOString(), jobId);
  }
}
