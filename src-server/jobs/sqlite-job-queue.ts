// Jobs as rows in SQLite (decisions 0005, 0028), under the one runner (job-runner.ts, decision 0049). A
// job is claimed by setting it active with this worker's id (`worker_id`) and a heartbeat; every later
// update of it checks that id, and an update that touches no row means the worker lost the job (its
// lease expired and another worker took it, or it was cancelled). On their own timer, active jobs whose
// worker is gone (dead pid on this host, or a stale heartbeat) are queued again, and finished rows older
// than the retention period are deleted. Retries wait with exponential backoff and jitter.
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.js';
import { revive, type StoredError } from './job-failure.js';
import type { JobName } from './job-queue.js';
import {
  DEFAULT_RETENTION_MS,
  JobRunner,
  type ClaimedJob,
  type JobOutcome,
  type JobQueueOptions,
  type JobStore,
} from './job-runner.js';
import { backoffDelay } from '../../src-shared/backoff.js';

// Kept importable from here for existing callers; the code lives in job-failure.ts.
export { failsAtOnce, publicFailure } from './job-failure.js';

export type SqliteJobQueueOptions = JobQueueOptions;

const nowIso = () => new Date().toISOString();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

class SqliteJobStore implements JobStore {
  private recoveryTimer: NodeJS.Timeout | null = null;
  private lastBeat = 0;

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
    private readonly options: SqliteJobQueueOptions,
  ) {}

  /** How often running jobs' heartbeats are written; between beats, a poll only reads that the rows are still ours. */
  private get beatMs() {
    return Math.max(250, Math.floor(this.options.staleAfterMs / 4));
  }

  async open() {}

  startWorking(runningHere: (jobId: string) => boolean) {
    this.recover(runningHere);
    // Its own timer, so that a worker busy with long jobs (or with none) still recovers other workers' orphans.
    this.recoveryTimer = setInterval(
      () => this.recover(runningHere),
      Math.max(this.beatMs, Math.floor(this.options.staleAfterMs / 2)),
    );
  }

  async close() {
    if (this.recoveryTimer) clearInterval(this.recoveryTimer);
    this.recoveryTimer = null;
  }

  async send(name: JobName, payload: unknown, options: { singletonKey: string | null; maxAttempts: number }) {
    const id = randomUUID();
    const now = nowIso();
    const result = this.db
      .prepare(
        `INSERT INTO jobs (job_id, name, payload, state, singleton_key, max_attempts, run_after, created_at, updated_at)
         VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
      .run(id, name, JSON.stringify(payload), options.singletonKey, options.maxAttempts, now, now, now);
    return result.changes === 0 ? null : id;
  }

  async claim(names: JobName[]): Promise<ClaimedJob | null> {
    return this.db
      .transaction(() => {
        const row = this.db
          .prepare(
            `SELECT job_id, name, payload, attempts, max_attempts, singleton_key FROM jobs
           WHERE name IN (${names.map(() => '?').join(', ')}) AND state = 'queued' AND run_after <= ? ORDER BY run_after, created_at LIMIT 1`,
          )
          .get(...names, nowIso()) as
          | {
              job_id: string;
              name: JobName;
              payload: string;
              attempts: number;
              max_attempts: number;
              singleton_key: string | null;
            }
          | undefined;
        if (!row) return null;
        const now = nowIso();
        this.db
          .prepare(
            `UPDATE jobs SET state = 'active', worker_id = ?, attempts = attempts + 1, heartbeat_at = ?, updated_at = ? WHERE job_id = ?`,
          )
          .run(this.workerId, now, now, row.job_id);
        const { job_id: jobId, name, payload, attempts, max_attempts: maxAttempts, singleton_key: singletonKey } = row;
        return {
          jobId,
          name,
          payload: JSON.parse(payload) as unknown,
          attempt: attempts + 1,
          maxAttempts,
          singletonKey,
        };
      })
      .immediate();
  }

  async hold(jobs: ClaimedJob[]) {
    const beat = Date.now() - this.lastBeat >= this.beatMs;
    if (beat) this.lastBeat = Date.now();
    const touch = this.db.prepare(
      `UPDATE jobs SET heartbeat_at = ? WHERE job_id = ? AND worker_id = ? AND state = 'active'`,
    );
    const ours = this.db.prepare(`SELECT 1 FROM jobs WHERE job_id = ? AND worker_id = ? AND state = 'active'`);
    const held = (job: ClaimedJob) =>
      beat
        ? touch.run(nowIso(), job.jobId, this.workerId).changes > 0
        : ours.get(job.jobId, this.workerId) !== undefined;
    return new Set(jobs.filter((job) => !held(job)).map((job) => job.jobId));
  }

  async complete(job: ClaimedJob, result: unknown) {
    return this.updateOwned(
      job,
      `state = 'completed', last_error = NULL, output = ?`,
      result === undefined ? null : JSON.stringify(result),
    );
  }

  async fail(job: ClaimedJob, error: StoredError, lastError: string) {
    return this.updateOwned(job, `state = 'failed', last_error = ?, error = ?`, lastError, JSON.stringify(error));
  }

  async retry(job: ClaimedJob, lastError: string) {
    const delay = backoffDelay(job.attempt - 1, {
      baseDelayMs: this.options.retryBaseMs ?? 5000,
      maxDelayMs: 15 * 60_000,
    });
    return this.updateOwned(
      job,
      `state = 'queued', worker_id = NULL, run_after = ?, last_error = ?`,
      new Date(Date.now() + delay).toISOString(),
      lastError,
    );
  }

  async handBack(job: ClaimedJob) {
    return this.updateOwned(job, `state = 'queued', worker_id = NULL, attempts = attempts - 1`);
  }

  async cancel(singletonKey: string) {
    const ids = this.db
      .prepare(
        `UPDATE jobs SET state = 'cancelled', updated_at = ? WHERE singleton_key = ? AND state IN ('queued', 'active') RETURNING job_id`,
      )
      .all(nowIso(), singletonKey) as Array<{ job_id: string }>;
    return ids.map((row) => row.job_id);
  }

  async outcome(_name: JobName, jobId: string, take: boolean): Promise<JobOutcome> {
    const row = this.db.prepare(`SELECT state, output, error, last_error FROM jobs WHERE job_id = ?`).get(jobId) as
      { state: string; output: string | null; error: string | null; last_error: string | null } | undefined;
    if (!row) return { state: 'gone' };
    if (row.state === 'completed') {
      if (take && row.output !== null) this.db.prepare(`UPDATE jobs SET output = NULL WHERE job_id = ?`).run(jobId);
      return { state: 'completed', result: row.output === null ? undefined : (JSON.parse(row.output) as unknown) };
    }
    if (row.state === 'failed')
      return {
        state: 'failed',
        error: revive(row.error === null ? null : (JSON.parse(row.error) as StoredError), row.last_error),
      };
    return { state: row.state === 'cancelled' ? 'cancelled' : 'pending' };
  }

  async unfinished(name: JobName) {
    const rows = this.db
      .prepare(`SELECT job_id, payload FROM jobs WHERE name = ? AND state IN ('queued', 'active')`)
      .all(name) as Array<{ job_id: string; payload: string }>;
    return rows.map((row) => ({ jobId: row.job_id, payload: JSON.parse(row.payload) as unknown }));
  }

  async backlog() {
    const counts = this.db
      .prepare(`SELECT state, count(*) AS n FROM jobs WHERE state IN ('queued', 'active') GROUP BY state`)
      .all() as Array<{ state: string; n: number }>;
    const of = (state: string) => counts.find((c) => c.state === state)?.n ?? 0;
    return { queued: of('queued'), running: of('active') };
  }

  /** An update of a job this worker claimed: only while it still owns it. False: it does not. */
  private updateOwned(job: ClaimedJob, set: string, ...values: unknown[]): boolean {
    return (
      this.db
        .prepare(`UPDATE jobs SET ${set}, updated_at = ? WHERE job_id = ? AND worker_id = ? AND state = 'active'`)
        .run(...values, nowIso(), job.jobId, this.workerId).changes > 0
    );
  }

  private recover(runningHere: (jobId: string) => boolean) {
    try {
      this.recoverOrphans(runningHere);
      this.purgeFinished();
    } catch (error) {
      this.options.logger.error({ err: error }, 'job recovery failed');
    }
  }

  /** Active jobs whose worker is gone go back to the queue. */
  private recoverOrphans(runningHere: (jobId: string) => boolean) {
    const staleBefore = new Date(Date.now() - this.options.staleAfterMs).toISOString();
    const active = this.db
      .prepare(`SELECT job_id, worker_id, heartbeat_at FROM jobs WHERE state = 'active'`)
      .all() as Array<{
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
      if (job.worker_id === this.workerId && runningHere(job.job_id)) continue;
      const [host, pid] = (job.worker_id ?? '').split(':');
      const deadHere = host === os.hostname() && !processAlive(Number(pid));
      const stale = (job.heartbeat_at ?? '') < staleBefore;
      const now = nowIso();
      if ((deadHere || stale) && requeue.run(now, now, job.job_id, job.worker_id, job.heartbeat_at).changes > 0) {
        this.options.logger.warn(
          { jobId: job.job_id, worker: job.worker_id },
          'job orphaned by a dead or silent worker; queued again',
        );
      }
    }
  }

  private purgeFinished() {
    const before = new Date(Date.now() - (this.options.retentionMs ?? DEFAULT_RETENTION_MS)).toISOString();
    const { changes } = this.db
      .prepare(`DELETE FROM jobs WHERE state IN ('completed', 'failed', 'cancelled') AND updated_at < ?`)
      .run(before);
    if (changes > 0) this.options.logger.info({ deleted: changes }, 'finished job rows past retention deleted');
  }
}

/** The JobQueue on SQLite: the one runner over SQLite's rows. */
export class SqliteJobQueue extends JobRunner {
  constructor(db: Db, options: SqliteJobQueueOptions) {
    super((workerId) => new SqliteJobStore(db, workerId, options), options);
  }
}
