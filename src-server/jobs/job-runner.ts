// The one job runner (decision 0049): polling per group of job names, running, heartbeats and the
// fence of every write to the attempt claimed, cancels from any process, retries judged by
// job-failure.ts, runsOnce, waiting for results and the drain on stop. Where jobs are kept is a
// JobStore: SQLite rows for self-hosting (sqlite-job-queue.ts, decisions 0005 and 0028) or pg-boss on
// PostgreSQL for several processes (pg-boss-job-queue.ts, decision 0031).
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  failsAtOnce,
  failureLog,
  interruptedOnce,
  letRunningJobsFinish,
  publicFailure,
  storedError,
  type StoredError,
} from './job-failure.js';
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

/** One attempt of a job, as a worker claimed it; every store call about it is fenced to this attempt. */
export interface ClaimedJob {
  jobId: string;
  name: JobName;
  payload: unknown;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  singletonKey: string | null;
  /** Set when this attempt exists only to record a failure (the store says why): nothing runs. */
  exhausted?: string;
}

/** What a waiter finds in the store. */
export type JobOutcome =
  | { state: 'completed'; result: unknown }
  | { state: 'failed'; error: Error }
  | { state: 'cancelled' | 'gone' | 'pending' };

/** Where jobs are kept. Every call naming a ClaimedJob returns false (or reports it) once the attempt is no longer this worker's. */
export interface JobStore {
  /** Ready for sends, claims and reads (a no-op where there is nothing to connect). */
  open(): Promise<void>;
  /** Starts what the store does on its own while this process works jobs (SQLite: recovering orphans; pg-boss supervises itself). */
  startWorking?(runningHere: (jobId: string) => boolean): void;
  close(): Promise<void>;
  send(
    name: JobName,
    payload: unknown,
    options: { singletonKey: string | null; maxAttempts: number },
  ): Promise<string | null>;
  /** Claims the next due job of these names for this worker. */
  claim(names: JobName[]): Promise<ClaimedJob | null>;
  /**
   * Keeps the leases of these running jobs; returns the ids this worker no longer holds (cancelled, or
   * taken over). Called on every poll, and for one job by ensureOwned before it writes its results.
   */
  hold(jobs: ClaimedJob[]): Promise<Set<string>>;
  complete(job: ClaimedJob, result: unknown): Promise<boolean>;
  /** Fails the job for good, whatever attempts remain. */
  fail(job: ClaimedJob, error: StoredError, lastError: string): Promise<boolean>;
  /** Queues the job again after the store's backoff. */
  retry(job: ClaimedJob, lastError: string): Promise<boolean>;
  /** Gives the attempt back as if it had never been claimed. */
  handBack(job: ClaimedJob): Promise<boolean>;
  /** Cancels the unfinished jobs with this key; returns their ids. */
  cancel(singletonKey: string): Promise<string[]>;
  /** With `take`, a completed job's result is removed as it is read. */
  outcome(name: JobName, jobId: string, take: boolean): Promise<JobOutcome>;
  unfinished(name: JobName): Promise<Array<{ jobId: string; payload: unknown }>>;
  backlog(): Promise<{ queued: number; running: number }>;
}

/** What every queue is configured with; each store adds its own. */
export interface JobQueueOptions {
  logger: Logger;
  /** A running job whose heartbeat is older than this runs again elsewhere (pg-boss's minimum is 10 s). */
  staleAfterMs: number;
  /** How often idle workers look for jobs, running jobs' leases are kept and waiters look again. Default 500 ms. */
  pollIntervalMs?: number;
  /** First retry delay; doubles each attempt, with jitter, up to 15 minutes (pg-boss counts whole seconds, at least 1). */
  retryBaseMs?: number;
  /** Finished jobs are deleted this long after they ended. Default 7 days. */
  retentionMs?: number;
}

export const DEFAULT_RETENTION_MS = 7 * 24 * 3600_000;

/** Why a running job's signal was aborted; decides what the runner writes afterwards. */
type StopReason = 'cancelled' | 'lost' | 'shutdown';

interface RunningJob {
  claimed: ClaimedJob;
  group: string;
  controller: AbortController;
  done: Promise<void>;
  stop: StopReason | null;
}

const STOP_MESSAGES: Record<StopReason, string> = {
  cancelled: 'job cancelled',
  lost: 'job lost: another worker took it over',
  shutdown: 'server shutting down',
};

export class JobRunner implements JobQueue {
  readonly workerId = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly definitions = new Map<JobName, JobDefinition<JobName>>();
  /** Group -> its job names and concurrency. */
  private readonly groups = new Map<string, { names: JobName[]; concurrency: number }>();
  private readonly running = new Map<string, RunningJob>();
  /** Wakes the waiters of jobs that end in this process at once; others find out by polling the store. */
  private readonly endedHere = new Map<string, Set<() => void>>();
  /** Waiters' reads under way: stop() lets them finish, so the waiter of a job that ended here hears how. */
  private readonly checks = new Set<Promise<void>>();
  private pollTimer: NodeJS.Timeout | null = null;
  /** The poll under way, which stop() lets finish before it hands back what is running. */
  private polling: Promise<void> | null = null;
  private working = false;
  /** Stopping with a grace period: running jobs go on, no new one is claimed. */
  private draining = false;
  private closed = false;

  private readonly store: JobStore;

  /** `store` makes the store for this worker (its id is what the store fences claims with). */
  constructor(
    store: (workerId: string) => JobStore,
    private readonly options: JobQueueOptions,
  ) {
    this.store = store(this.workerId);
  }

  private get pollIntervalMs() {
    return this.options.pollIntervalMs ?? 500;
  }

  async send<N extends JobName>(name: N, payload: JobPayloads[N], options: SendOptions = {}) {
    await this.store.open();
    const maxAttempts = options.maxAttempts ?? this.definitions.get(name)?.maxAttempts ?? 3;
    const id = await this.store.send(name, payload, { singletonKey: options.singletonKey ?? null, maxAttempts });
    if (id !== null) setImmediate(() => void this.poll());
    return id;
  }

  work<N extends JobName>(name: N, definition: JobDefinition<N>) {
    this.definitions.set(name, definition);
    const group = definition.group ?? name;
    const entry = this.groups.get(group);
    if (entry) entry.names.push(name);
    else this.groups.set(group, { names: [name], concurrency: definition.concurrency ?? 1 });
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
      const onAbort = () =>
        settle(() => reject(signal?.reason instanceof Error ? signal.reason : new Error('stopped waiting')));
      const check = async () => {
        await this.store.open();
        const outcome = await this.store.outcome(name, jobId, options.take ?? false);
        if (outcome.state === 'completed') return settle(() => resolve(outcome.result as JobResults[N]));
        if (outcome.state === 'failed') return settle(() => reject(outcome.error));
        if (outcome.state === 'gone')
          return settle(() => reject(new JobCancelledError(`job ${jobId} no longer exists`)));
        if (outcome.state === 'cancelled')
          return settle(() => reject(new JobCancelledError(`job ${jobId} was cancelled`)));
        if (!settled) timer = setTimeout(wake, this.pollIntervalMs);
      };
      const wake = () => {
        if (timer) clearTimeout(timer);
        const checking = check().catch((error: unknown) =>
          settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
        );
        this.checks.add(checking);
        void checking.finally(() => this.checks.delete(checking));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      listeners.add(wake);
      wake();
    });
  }

  async unfinished<N extends JobName>(name: N) {
    await this.store.open();
    return (await this.store.unfinished(name)) as Array<{ jobId: string; payload: JobPayloads[N] }>;
  }

  async cancel(singletonKey: string) {
    await this.store.open();
    for (const jobId of await this.store.cancel(singletonKey)) this.notifyEnded(jobId);
    for (const [jobId, job] of this.running) {
      if (job.claimed.singletonKey === singletonKey) {
        this.abort(jobId, 'cancelled');
        await job.done;
      }
    }
  }

  async start() {
    if (this.working) return;
    await this.store.open();
    this.working = true;
    this.draining = false;
    this.closed = false;
    this.store.startWorking?.((jobId) => this.running.has(jobId));
    this.pollTimer = setInterval(() => void this.poll(), this.pollIntervalMs);
    void this.poll();
  }

  async stop(options: { graceMs?: number } = {}) {
    if (this.closed) return;
    const graceMs = options.graceMs ?? 0;
    if (this.working && graceMs > 0 && this.running.size > 0) {
      // Polls go on meanwhile, so a cancel still reaches the running jobs and their leases hold.
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
    await this.store.close();
  }

  /** For /healthz: the backlog; throws when the store cannot be reached. */
  async check() {
    await this.store.open();
    const { queued, running } = await this.store.backlog();
    return `${queued} queued, ${running} running`;
  }

  private abort(jobId: string, reason: StopReason) {
    const job = this.running.get(jobId);
    if (!job || job.stop) return;
    job.stop = reason;
    job.controller.abort(
      reason === 'lost' ? new JobLostError(STOP_MESSAGES[reason]) : new Error(STOP_MESSAGES[reason]),
    );
  }

  /** This worker's attempt of the job is gone: cancelled (or deleted), or taken over after its lease lapsed. */
  private async lostOrCancelled(jobId: string) {
    const job = this.running.get(jobId);
    if (!job) return;
    const { state } = await this.store.outcome(job.claimed.name, jobId, false);
    this.abort(jobId, state === 'cancelled' || state === 'gone' ? 'cancelled' : 'lost');
  }

  private notifyEnded(jobId: string) {
    for (const wake of this.endedHere.get(jobId) ?? []) wake();
  }

  private poll(): Promise<void> {
    if (!this.working || this.polling) return Promise.resolve();
    this.polling = (async () => {
      try {
        // A cancel or a takeover by another process shows when the leases of the jobs running here are kept.
        const held = [...this.running.values()].filter((job) => !job.stop).map((job) => job.claimed);
        if (held.length > 0) for (const jobId of await this.store.hold(held)) await this.lostOrCancelled(jobId);
        for (const [group, entry] of this.groups) {
          while (
            this.working &&
            !this.draining &&
            [...this.running.values()].filter((job) => job.group === group).length < entry.concurrency
          ) {
            const claimed = await this.store.claim(entry.names);
            if (!claimed) break;
            if (!this.working || this.draining) {
              // A drain or stop began while this claim was on its way: the job was never started here.
              await this.store.handBack(claimed);
              break;
            }
            this.run(claimed, group);
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

  private run(claimed: ClaimedJob, group: string) {
    const { jobId, name, attempt, singletonKey } = claimed;
    const definition = this.definitions.get(name)!;
    const payload = claimed.payload as JobPayloads[JobName];
    const log = this.options.logger.child({ jobId, job: name, attempt });
    const entry: RunningJob = {
      claimed,
      group,
      controller: new AbortController(),
      done: Promise.resolve(),
      stop: null,
    };
    this.running.set(jobId, entry);
    // One line per attempt, so an operator (and the cluster test) can tell which worker ran what.
    log.info({ worker: this.workerId, ...(singletonKey ? { singletonKey } : {}) }, 'job started');
    const context: JobContext = {
      jobId,
      attempt,
      signal: entry.controller.signal,
      logger: log,
      ensureOwned: async () => {
        if ((await this.store.hold([claimed])).size > 0) {
          await this.lostOrCancelled(jobId);
          throw new JobLostError('job lost: another worker took it over, or it was cancelled');
        }
      },
    };
    const lost = () =>
      log.warn({ worker: this.workerId }, 'job lost to another worker or cancelled; its result is not written');
    const failForGood = async (error: Error) => {
      const shown = publicFailure(error);
      if (await this.store.fail(claimed, storedError(shown.error), error.message)) {
        log.warn({ ...failureLog(error), ...(shown.errorId ? { error_id: shown.errorId } : {}) }, 'job failed');
        await definition
          .onFailed?.(payload, shown.error, { jobId })
          .catch((e: unknown) => log.error({ err: e }, 'onFailed hook threw'));
      } else lost();
    };
    entry.done = (async () => {
      try {
        // Taken over after its worker died or froze: a job run once ends here, without running.
        if (definition.runsOnce && attempt > 1) return await failForGood(interruptedOnce());
        if (claimed.exhausted) return await failForGood(new Error(claimed.exhausted));
        try {
          const output = await definition.handle(payload, context);
          if (await this.store.complete(claimed, output)) log.info('job completed');
          else lost();
        } catch (raw) {
          const error = raw instanceof Error ? raw : new Error(String(raw));
          const stop = entry.stop ?? (error instanceof JobLostError ? 'lost' : null);
          if (stop === 'cancelled') log.info('job cancelled');
          else if (stop === 'lost') lost();
          else if (stop === 'shutdown' && definition.runsOnce) await failForGood(interruptedOnce());
          else if (stop === 'shutdown') {
            // Give the attempt back and let the next start run it.
            if (await this.store.handBack(claimed)) log.info('job interrupted by shutdown; queued again');
          } else if (failsAtOnce(error) || attempt >= claimed.maxAttempts) await failForGood(error);
          else if (await this.store.retry(claimed, error.message))
            log.warn(failureLog(error), 'job failed; will retry');
          else lost();
        }
      } catch (error) {
        log.error({ err: error }, 'job queue could not record the outcome of a job');
      } finally {
        this.running.delete(jobId);
        this.notifyEnded(jobId);
        setImmediate(() => void this.poll());
      }
    })();
  }
}
