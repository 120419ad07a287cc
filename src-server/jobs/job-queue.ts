// The durable job queue, as the rest of the server sees it. One runner implements it (job-runner.ts,
// decision 0049) over a store: SQLite for self-hosting (sqlite-job-queue.ts), pg-boss on PostgreSQL for
// several processes (pg-boss-job-queue.ts, decision 0031); test/unit/server/jobs/job-queue-contract.ts
// is what both do.
import type { Logger } from 'pino';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { SpeakerOptions } from '../domain/transcription-pipeline.js';

/** POST /v1/audio/transcriptions (and translations) as a job: the audio is in storage, the answer is the job's output. */
export interface OpenAiTranscribePayload {
  /** Storage key of the uploaded audio (the route deletes it once answered). */
  audioKey: string;
  /** A speech engine name from the registry. */
  engine: string;
  /** ISO 639-1, or "auto". */
  language: string;
  task: 'transcribe' | 'translate';
  /** The transcription model the request asked for (recorded in the document). */
  model: string;
  vocabulary: Array<{ word: string; reading?: string | null }>;
  /** The caller's team and the dictionary whose words and forced replacements apply, if any. */
  teamId: string;
  dictionaryId: string | null;
  /** Null: no speaker separation. */
  speakers: SpeakerOptions | null;
  /**
   * `known_speaker_names[]`: the team's enrolled voices of these names are looked for among the separated
   * speakers (decision 0065). Absent in jobs queued before it.
   */
  knownSpeakerNames?: string[];
  /**
   * `known_speaker_references[]`: storage keys of each name's reference clip, in the same order, beside the
   * upload (removed with it). A name that is no voice of the library is looked for by its clip's print
   * (decision 0092); a name that is one has null (its clip is not stored). Absent in jobs queued before it.
   */
  knownSpeakerReferences?: (string | null)[];
}

/** Every job type and its payload. Adding a job means adding a line here and a file beside this one. */
export interface JobPayloads {
  transcribe: {
    transcriptionId: string;
    /** Transcribed again in place (decision 0062): who asked, the author of the revision it makes. */
    again?: { author: { userId: string; name: string } };
  };
  'openai-transcribe': OpenAiTranscribePayload;
  summarize: { transcriptionId: string };
  'analyze-emotion': { transcriptionId: string };
  translate: { transcriptionId: string; language: string };
  'apply-replacements': {
    transcriptionId: string;
    dictionaryId: string;
    /** Who asked: the author of the revision it makes (decision 0052); absent in jobs queued before. */
    author?: { userId: string; name: string };
    /** The revision the caller said is the latest (If-Match). */
    ifMatch?: number;
  };
}
export type JobName = keyof JobPayloads;
/** Every job name (exhaustive by type): each is one pg-boss queue. */
const JOB_NAME_SET: Record<JobName, true> = {
  transcribe: true,
  'openai-transcribe': true,
  summarize: true,
  'analyze-emotion': true,
  translate: true,
  'apply-replacements': true,
};
export const JOB_NAMES = Object.keys(JOB_NAME_SET) as JobName[];

/** What a job hands back to whoever waits for it (JobQueue.wait). Must survive JSON. */
export interface JobResults {
  transcribe: void;
  'openai-transcribe': TranscriptDocument;
  summarize: void;
  'analyze-emotion': void;
  translate: void;
  /** `movedOn`: the latest revision, when it is not the If-Match one (nothing written). */
  'apply-replacements': { replaced: number; revision: number } | { movedOn: number };
}

/** The worker no longer owns the job (its lease expired and another worker took it, or it was cancelled): write nothing more. */
export class JobLostError extends Error {
  override readonly name = 'JobLostError';
}

/** The job was cancelled before it finished (JobQueue.wait rejects with this). */
export class JobCancelledError extends Error {
  override readonly name = 'JobCancelledError';
}

export interface JobContext {
  jobId: string;
  /** 1 on the first run. */
  attempt: number;
  /** Aborted when the job is cancelled, lost to another worker, or the server shuts down. */
  signal: AbortSignal;
  /** The job's logger (carries jobId, job and attempt). */
  logger: Logger;
  /**
   * Resolves while this worker still owns the job; throws JobLostError (and aborts `signal`) when it
   * does not. A job calls it right before writing its results, so a worker whose lease expired while
   * it ran does not overwrite what the worker that took over wrote.
   */
  ensureOwned(): Promise<void>;
}

export interface JobDefinition<N extends JobName> {
  handle(payload: JobPayloads[N], context: JobContext): Promise<JobResults[N]>;
  /**
   * Called once when the job will not run again: an EngineError that is not transient, or retries
   * exhausted. `error.message` is for users (a failure_reason): an EngineError's own message, or for any
   * other error a stable sentence with an error id (the runner logs the original with that id).
   */
  onFailed?(payload: JobPayloads[N], error: Error, context: { jobId: string }): Promise<void>;
  /**
   * A caller waits on the line for this job (the OpenAI route): an attempt cut short, by a crash (the job
   * is taken over) or a shutdown past its grace, is not run again nor handed back; the job fails with a
   * transient EngineError (the waiter, if still there, is told to send the request again) and onFailed
   * runs. Decision 0044.
   */
  runsOnce?: boolean;
  /** Jobs at once of this name, or of its group when it has one. */
  concurrency?: number;
  /** Job names with the same group share one concurrency limit (the group's first definition sets it). */
  group?: string;
  maxAttempts?: number;
}

export interface SendOptions {
  /** At most one queued or running job per key; a second send with the same key is ignored. */
  singletonKey?: string;
  /** Overrides the definition's maxAttempts (1: no retries, for a caller that is waiting). */
  maxAttempts?: number;
}

export interface WaitOptions {
  /** Stops the waiting, not the job. */
  signal?: AbortSignal;
  /** The result is this waiter's alone: it is removed from the store as it is read (a transcript kept no longer than needed). */
  take?: boolean;
}

export interface JobQueue {
  /** Returns the job id, or null when an unfinished job with the same singleton key exists. */
  send<N extends JobName>(name: N, payload: JobPayloads[N], options?: SendOptions): Promise<string | null>;
  work<N extends JobName>(name: N, definition: JobDefinition<N>): void;
  /**
   * Resolves with the job's result once it completes, wherever it ran. Rejects with its failure (an
   * EngineError keeps its kind and field), or JobCancelledError. The signal stops the waiting, not the job.
   */
  wait<N extends JobName>(name: N, jobId: string, options?: WaitOptions): Promise<JobResults[N]>;
  /** The jobs of this name not yet ended (waiting, or running), with their payloads: for sweeps of what they use. */
  unfinished<N extends JobName>(name: N): Promise<Array<{ jobId: string; payload: JobPayloads[N] }>>;
  /** Stops and forgets the unfinished job with this key, aborting it wherever it is running. */
  cancel(singletonKey: string): Promise<void>;
  start(): Promise<void>;
  /**
   * Aborts running jobs and puts them back in the queue, so the next start runs them again. With
   * `graceMs` (a drain, on SIGTERM), first stops taking jobs and lets the running ones finish for up to
   * that long; only those still running then are handed back.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /**
   * For /healthz: throws when the queue's store cannot be reached; otherwise resolves with a short
   * description for operators (the backlog).
   */
  check?(): Promise<string>;
}
