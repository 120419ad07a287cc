// How a job's failure is judged, shown and kept, and how a stop drains, the same for every queue (decision 0028): the SQLite
// queue and the pg-boss queue store a failure with `storedError` and hand it to waiters in any process
// with `revive`, so an EngineError keeps its kind, message and field across the database.
import { randomUUID } from 'node:crypto';
import { EngineError, ENGINE_ERROR_KINDS, type EngineErrorKind } from '../domain/engine-error.js';
import type { Logger } from 'pino';
import type { FailureCode } from '../../src-shared/api/vocabulary.js';

/**
 * The one place a failure becomes "fail now" or "try again". An engine that says the input is bad, the
 * request unsupported or the engine unavailable will say so again on every attempt; a transient
 * EngineError and any other error (a crash, a full disk) may pass, so they retry.
 */
export function failsAtOnce(error: unknown): boolean {
  return error instanceof EngineError && !error.retryable;
}

/** Log fields for a failure: an EngineError's kind and its detail, which the user-facing message leaves out. */
export function failureLog(error: Error): Record<string, unknown> {
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

/** Why a job failed for good, as the API's closed code: an EngineError's kind, or `internal` for anything else. */
export function failureCode(error: Error): FailureCode {
  return error instanceof EngineError ? error.kind : 'internal';
}

/** The failure of a `runsOnce` job whose attempt was cut short (decision 0044): its waiter may send the request again. */
export function interruptedOnce(): EngineError {
  return new EngineError(
    'transient',
    'The server stopped while working on this request, and does not run it a second time. Send the request again.',
  );
}

/** A failure as a queue stores it, for waiters in any process (JSON). */
export interface StoredError {
  kind?: EngineErrorKind;
  message: string;
  field?: string;
}

export function storedError(error: Error): StoredError {
  return error instanceof EngineError
    ? { kind: error.kind, message: error.message, ...(error.field ? { field: error.field } : {}) }
    : { message: error.message };
}

/** The stored failure as an error again: an EngineError when it was one. */
export function revive(stored: StoredError | null, fallbackMessage: string | null): Error {
  if (stored?.kind && (ENGINE_ERROR_KINDS as readonly string[]).includes(stored.kind)) {
    return new EngineError(stored.kind, stored.message, stored.field ? { field: stored.field } : {});
  }
  return new Error(stored?.message ?? fallbackMessage ?? 'The job failed.');
}

/**
 * The drain both queues do on stop with a grace period: the caller has stopped taking jobs; this waits
 * for the running ones (polls and heartbeats go on meanwhile, so a cancel still reaches them and their
 * leases hold) until they end or the grace is over, whichever comes first.
 */
export async function letRunningJobsFinish(
  running: ReadonlyArray<{ done: Promise<void> }>,
  graceMs: number,
  logger: Logger,
): Promise<void> {
  logger.info({ running: running.length, graceMs }, 'draining: letting running jobs finish; taking no new ones');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all(running.map((job) => job.done)), graceOver]);
  clearTimeout(timer);
}
