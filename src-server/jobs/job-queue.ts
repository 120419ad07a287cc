// The durable job queue, as the rest of the server sees it. SQLite implements it for self-hosting;
// a distributed queue can implement the same interface.
import type { Logger } from 'pino';

/** Every job type and its payload. Adding a job means adding a line here and a file beside this one. */
export interface JobPayloads {
  transcribe: { transcriptionId: string };
  summarize: { transcriptionId: string };
  'analyze-emotion': { transcriptionId: string };
  translate: { transcriptionId: string; language: string };
}
export type JobName = keyof JobPayloads;

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the job is cancelled or the server shuts down. */
  signal: AbortSignal;
  /** The job's logger (carries jobId, job and attempt). */
  logger: Logger;
}

export interface JobDefinition<N extends JobName> {
  handle(payload: JobPayloads[N], context: JobContext): Promise<void>;
  /**
   * Called once when the job will not run again: an EngineError that is not transient, or retries
   * exhausted. `error.message` is for users (a failure_reason): an EngineError's own message, or for any
   * other error a stable sentence with an error id (the runner logs the original with that id).
   */
  onFailed?(payload: JobPayloads[N], error: Error): Promise<void>;
  concurrency?: number;
  maxAttempts?: number;
}

export interface SendOptions {
  /** At most one queued or running job per key; a second send with the same key is ignored. */
  singletonKey?: string;
}

export interface JobQueue {
  /** Returns the job id, or null when an unfinished job with the same singleton key exists. */
  send<N extends JobName>(name: N, payload: JobPayloads[N], options?: SendOptions): Promise<string | null>;
  work<N extends JobName>(name: N, definition: JobDefinition<N>): void;
  /** Stops and forgets the unfinished job with this key, aborting it if it is running here. */
  cancel(singletonKey: string): Promise<void>;
  start(): Promise<void>;
  /** Aborts running jobs and puts them back in the queue, so the next start runs them again. */
  stop(): Promise<void>;
}
