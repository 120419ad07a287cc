// What every JobQueue does, whatever it runs on (src-server/jobs/job-queue.ts): run once, retry with
// backoff, fail at once when retrying cannot help, show users a stable message for an unexpected failure,
// one unfinished job per singleton key, hand running jobs back on stop, cancel a running job, hand a
// result (or an EngineError with its kind and field) to a waiter, share a group's concurrency.
// sqlite-job-queue.test.ts and pg-boss-job-queue.test.ts run it against their queue, each on a real
// database; what only one queue does (its rows, its recovery) stays in its own file.
import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src-server/domain/engine-error.js';
import type { JobQueue, OpenAiTranscribePayload } from '../../src-server/jobs/job-queue.js';
import { abortReason } from '../../src-shared/abort.js';

/** A job's state in the contract's words (each queue names its own states). */
export type ContractState = 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';

export interface QueueStore {
  /** A new queue on this store (a second worker, or the next start after a stop). Stopped after each test. */
  queue(options?: { logger?: Logger }): JobQueue;
  state(jobId: string): Promise<ContractState | undefined>;
}

export interface QueueBackend {
  /** A fresh, empty store. */
  open(): Promise<QueueStore>;
}

export const deferred = <T = void>() => {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

/** A logger whose JSON lines the test reads. */
export function capturedLog(level: string) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString());
      callback();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

export const openAiPayload: OpenAiTranscribePayload = {
  audioKey: 'a',
  engine: 'e1',
  language: 'en',
  task: 'transcribe',
  model: 'whisper-1',
  vocabulary: [],
  teamId: 't',
  dictionaryId: null,
  speakers: null,
};

export function describeJobQueueContract(label: string, backend: QueueBackend) {
  describe(`${label}: the JobQueue contract`, () => {
    const queues: JobQueue[] = [];
    const open = async () => {
      const store = await backend.open();
      return {
        store,
        queue: (options?: { logger?: Logger }) => {
          const queue = store.queue(options);
          queues.push(queue);
          return queue;
        },
      };
    };
    afterEach(async () => {
      await Promise.all(queues.splice(0).map((q) => q.stop()));
    });

    it('runs a job to completion', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const seen = deferred<string>();
      queue.work('transcribe', { handle: async (payload) => seen.resolve(payload.transcriptionId) });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't1' });
      expect(await seen.promise).toBe('t1');
      await expect.poll(() => store.state(id!)).toBe('completed');
    });

    it('retries a failing job with backoff until it succeeds', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const attempts: number[] = [];
      const done = deferred();
      queue.work('transcribe', {
        maxAttempts: 3,
        handle: async (_p, { attempt }) => {
          attempts.push(attempt);
          if (attempt < 3) throw new Error('transient');
          done.resolve();
        },
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      await done.promise;
      expect(attempts).toEqual([1, 2, 3]);
      await expect.poll(() => store.state(id!)).toBe('completed');
    });

    it('retries a transient EngineError like any other failure', async () => {
      const { queue: make } = await open();
      const queue = make();
      const attempts: number[] = [];
      queue.work('transcribe', {
        maxAttempts: 3,
        handle: async (_p, { attempt }) => {
          attempts.push(attempt);
          if (attempt < 3) throw new EngineError('transient', 'The speech service is busy. Try again later.');
        },
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      await queue.wait('transcribe', id!);
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('fails at once, without retries, on a bad-input EngineError, and hands waiters its user message', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const failed = deferred<Error>();
      let runs = 0;
      queue.work('transcribe', {
        maxAttempts: 5,
        handle: async () => {
          runs += 1;
          throw new EngineError('bad-input', 'corrupt input', {
            detail: 'ffmpeg: invalid data found when processing input',
          });
        },
        onFailed: async (_p, error) => failed.resolve(error),
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      expect((await failed.promise).message).toBe('corrupt input');
      expect(runs).toBe(1);
      await expect.poll(() => store.state(id!)).toBe('failed');
      await expect(queue.wait('transcribe', id!)).rejects.toMatchObject({
        kind: 'bad-input',
        message: 'corrupt input',
      });
    });

    it('shows users a stable message with an error id for an unexpected failure, and logs the details under that id', async () => {
      const { queue: make } = await open();
      const { logger, lines } = capturedLog('warn');
      const queue = make({ logger });
      const failed = deferred<Error>();
      queue.work('transcribe', {
        maxAttempts: 1,
        handle: async () => {
          throw new Error('SQLITE_IOERR: disk I/O error in /var/lib/kikitori/work/t.pcm');
        },
        onFailed: async (_p, error) => failed.resolve(error),
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      const shown = (await failed.promise).message;
      expect(shown).not.toMatch(/SQLITE|\/var\/lib/);
      const errorId = shown.match(/error id ([0-9a-f-]{36})/)?.[1];
      expect(errorId).toBeDefined();
      const logged = lines
        .map((line) => JSON.parse(line) as { error_id?: string; err?: { message?: string } })
        .find((entry) => entry.error_id === errorId);
      expect(logged?.err?.message).toContain('SQLITE_IOERR');
      // A waiter in any process gets the same sentence, never the internal one.
      await expect(queue.wait('transcribe', id!)).rejects.toThrow(shown);
    });

    it('logs one "job started" line per attempt, naming the worker and the singleton key', async () => {
      const { queue: make } = await open();
      const { logger, lines } = capturedLog('info');
      const queue = make({ logger });
      const done = deferred();
      queue.work('transcribe', {
        maxAttempts: 2,
        handle: async (_p, { attempt }) => {
          if (attempt === 1) throw new Error('once');
          done.resolve();
        },
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' }, { singletonKey: 'transcription:t' });
      await done.promise;
      const started = lines
        .map(
          (line) =>
            JSON.parse(line) as {
              msg?: string;
              jobId?: string;
              attempt?: number;
              worker?: string;
              singletonKey?: string;
            },
        )
        .filter((entry) => entry.msg === 'job started' && entry.jobId === id);
      expect(started.map((entry) => entry.attempt)).toEqual([1, 2]);
      for (const entry of started) {
        expect(entry.worker).toContain(`:${process.pid}:`);
        expect(entry.singletonKey).toBe('transcription:t');
      }
    });

    it('gives up after max attempts and reports the failure once', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const reports: string[] = [];
      let runs = 0;
      const failed = deferred();
      queue.work('transcribe', {
        maxAttempts: 2,
        handle: async () => {
          runs += 1;
          throw new Error('always');
        },
        onFailed: async (_p, e) => {
          reports.push(e.message);
          failed.resolve();
        },
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      await failed.promise;
      await expect.poll(() => store.state(id!)).toBe('failed');
      // Once, in the users' words: an unexpected error's own text stays in the store and the log.
      expect(reports).toEqual([
        expect.stringMatching(
          /^The server could not finish this because of an internal problem \(error id [0-9a-f-]{36}\)/,
        ),
      ]);
      expect(runs).toBe(2);
    });

    it('keeps one unfinished job per singleton key, and takes the key again once that job has ended', async () => {
      const { queue: make } = await open();
      const queue = make();
      const first = await queue.send('transcribe', { transcriptionId: 'a' }, { singletonKey: 'k' });
      expect(first).toEqual(expect.any(String));
      expect(await queue.send('transcribe', { transcriptionId: 'a' }, { singletonKey: 'k' })).toBeNull();
      // Sends without a key are never held back by each other.
      expect(await queue.send('transcribe', { transcriptionId: 'b' })).toEqual(expect.any(String));
      expect(await queue.send('transcribe', { transcriptionId: 'c' })).toEqual(expect.any(String));
      await queue.cancel('k');
      expect(await queue.send('transcribe', { transcriptionId: 'a' }, { singletonKey: 'k' })).toEqual(
        expect.any(String),
      );
    });

    it('puts a running job back on stop, and the next start runs it as the same attempt', async () => {
      const { store, queue: make } = await open();
      const first = make();
      const started = deferred();
      first.work('transcribe', {
        handle: (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener('abort', () => reject(abortReason(signal)));
          }),
      });
      await first.start();
      const id = await first.send('transcribe', { transcriptionId: 't' });
      await started.promise;
      await first.stop();
      expect(await store.state(id!)).toBe('queued');

      const second = make();
      const ran = deferred<number>();
      second.work('transcribe', { handle: async (_p, { attempt }) => ran.resolve(attempt) });
      await second.start();
      expect(await ran.promise).toBe(1);
      await expect.poll(() => store.state(id!)).toBe('completed');
    });

    it('fails a runsOnce job stopped by a shutdown, calling onFailed with its id, instead of handing it back', async () => {
      const { store, queue: make } = await open();
      const first = make();
      const started = deferred();
      const failed = deferred<{ error: Error; jobId: string }>();
      first.work('openai-transcribe', {
        maxAttempts: 1,
        runsOnce: true,
        handle: (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener('abort', () => reject(abortReason(signal)));
          }),
        onFailed: async (_p, error, { jobId }) => failed.resolve({ error, jobId }),
      });
      await first.start();
      const id = (await first.send('openai-transcribe', openAiPayload, { maxAttempts: 1 }))!;
      const waiting = first.wait('openai-transcribe', id).catch((e: unknown) => e);
      await started.promise;
      await first.stop();
      expect(await store.state(id)).toBe('failed');
      expect(await failed.promise).toMatchObject({
        jobId: id,
        error: { kind: 'transient', message: expect.stringMatching(/Send the request again/) },
      });
      expect(await waiting).toMatchObject({ kind: 'transient' });

      // The next start does not run it.
      const second = make();
      let runs = 0;
      second.work('openai-transcribe', {
        maxAttempts: 1,
        runsOnce: true,
        handle: async () => (runs++, { text: 'again' }) as never,
      });
      await second.start();
      const other = (await second.send('openai-transcribe', { ...openAiPayload, audioKey: 'b' }, { maxAttempts: 1 }))!;
      await second.wait('openai-transcribe', other);
      expect(runs).toBe(1);
      expect(await store.state(id)).toBe('failed');
    });

    it('drains on stop with a grace period: the running job finishes, a queued one is not taken', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const started = deferred();
      const finish = deferred();
      const ran: string[] = [];
      queue.work('transcribe', {
        concurrency: 2,
        handle: async (payload) => {
          ran.push(payload.transcriptionId);
          started.resolve();
          await finish.promise;
        },
      });
      await queue.start();
      const running = await queue.send('transcribe', { transcriptionId: 'running' });
      await started.promise;
      const stopping = queue.stop({ graceMs: 120_000 });
      const waiting = await queue.send('transcribe', { transcriptionId: 'waiting' });
      // Long enough for a poll of either queue to have claimed the new job if draining did not stop it.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      finish.resolve();
      await stopping;
      expect(await store.state(running!)).toBe('completed');
      expect(await store.state(waiting!)).toBe('queued');
      expect(ran).toEqual(['running']);
    });

    it('hands a job back when it outlasts the grace period', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const started = deferred();
      queue.work('transcribe', {
        handle: (_payload, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener('abort', () => reject(abortReason(signal)));
          }),
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' });
      await started.promise;
      await queue.stop({ graceMs: 50 });
      expect(await store.state(id!)).toBe('queued');
    });

    it('cancels a running job by its singleton key: its signal aborts, waiters hear it was cancelled', async () => {
      const { store, queue: make } = await open();
      const queue = make();
      const started = deferred();
      let aborted = false;
      queue.work('transcribe', {
        handle: (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener('abort', () => {
              aborted = true;
              reject(abortReason(signal));
            });
          }),
      });
      await queue.start();
      const id = await queue.send('transcribe', { transcriptionId: 't' }, { singletonKey: 'key' });
      await started.promise;
      const waiting = queue.wait('transcribe', id!).catch((e: unknown) => e);
      await queue.cancel('key');
      expect(aborted).toBe(true);
      expect(await store.state(id!)).toBe('cancelled');
      expect(await waiting).toMatchObject({ name: 'JobCancelledError' });
    });

    it('cancels a running job from another queue instance on the same store (another process)', async () => {
      const { queue: make } = await open();
      const worker = make();
      const api = make();
      const started = deferred();
      const aborted = deferred<string>();
      worker.work('transcribe', {
        handle: (_p, { signal }) =>
          new Promise((_resolve, reject) => {
            started.resolve();
            signal.addEventListener('abort', () => {
              aborted.resolve(String((signal.reason as Error).message));
              reject(abortReason(signal));
            });
          }),
      });
      await worker.start();
      await api.send('transcribe', { transcriptionId: 't' }, { singletonKey: 'elsewhere' });
      await started.promise;
      await api.cancel('elsewhere');
      expect(await aborted.promise).toMatch(/cancelled/);
    });

    it("hands a job's result to a waiter, and its failure with the EngineError kind and field", async () => {
      const { queue: make } = await open();
      const queue = make();
      queue.work('openai-transcribe', {
        maxAttempts: 1,
        handle: async (payload) => {
          if (payload.language === 'xx')
            throw new EngineError('unsupported', 'That language is not recognized here.', { field: 'language' });
          return { text: `heard ${payload.engine}` } as never;
        },
      });
      await queue.start();
      const ok = (await queue.send('openai-transcribe', openAiPayload))!;
      expect(await queue.wait('openai-transcribe', ok)).toEqual({ text: 'heard e1' });
      const bad = (await queue.send('openai-transcribe', { ...openAiPayload, language: 'xx' }))!;
      const error = await queue.wait('openai-transcribe', bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EngineError);
      expect(error).toMatchObject({
        kind: 'unsupported',
        field: 'language',
        message: 'That language is not recognized here.',
      });
    });

    it('takes a result out of the store for a waiter that asks to take it', async () => {
      const { queue: make } = await open();
      const queue = make();
      queue.work('openai-transcribe', {
        maxAttempts: 1,
        handle: async (payload) => ({ text: `heard ${payload.audioKey}` }) as never,
      });
      await queue.start();
      const kept = (await queue.send('openai-transcribe', { ...openAiPayload, audioKey: 'kept' }))!;
      expect(await queue.wait('openai-transcribe', kept)).toEqual({ text: 'heard kept' });
      expect(await queue.wait('openai-transcribe', kept)).toEqual({ text: 'heard kept' });
      const taken = (await queue.send('openai-transcribe', { ...openAiPayload, audioKey: 'taken' }))!;
      expect(await queue.wait('openai-transcribe', taken, { take: true })).toEqual({ text: 'heard taken' });
      expect(await queue.wait('openai-transcribe', taken)).toBeUndefined();
    });

    it('lists the unfinished jobs of a name with their payloads', async () => {
      const { queue: make } = await open();
      const api = make();
      const a = (await api.send('openai-transcribe', { ...openAiPayload, audioKey: 'a' }))!;
      const b = (await api.send('openai-transcribe', { ...openAiPayload, audioKey: 'b' }))!;
      await api.send('summarize', { transcriptionId: 't' });
      // An ended job is not listed.
      await api.send('openai-transcribe', { ...openAiPayload, audioKey: 'c' }, { singletonKey: 'openai:c' });
      await api.cancel('openai:c');
      const listed = await api.unfinished('openai-transcribe');
      expect(listed.map((job) => [job.jobId, job.payload.audioKey]).sort()).toEqual(
        [
          [a, 'a'],
          [b, 'b'],
        ].sort(),
      );
    });

    it('hands the result to a waiter in another queue instance (an API process waiting on a worker)', async () => {
      const { queue: make } = await open();
      const worker = make();
      const api = make();
      worker.work('openai-transcribe', {
        maxAttempts: 1,
        handle: async (payload) => ({ text: `heard ${payload.audioKey}` }) as never,
      });
      await worker.start();
      const id = (await api.send('openai-transcribe', { ...openAiPayload, audioKey: 'far' }, { maxAttempts: 1 }))!;
      expect(await api.wait('openai-transcribe', id)).toEqual({ text: 'heard far' });
    });

    it("runs job names of one group within the group's concurrency", async () => {
      const { queue: make } = await open();
      const queue = make();
      let running = 0;
      let most = 0;
      const handle = async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
      };
      queue.work('transcribe', { group: 'speech', concurrency: 1, handle });
      queue.work('openai-transcribe', { group: 'speech', concurrency: 1, handle: handle as never });
      await queue.start();
      const ids = await Promise.all([
        queue.send('transcribe', { transcriptionId: 'a' }),
        queue.send('openai-transcribe', openAiPayload),
        queue.send('transcribe', { transcriptionId: 'b' }),
      ]);
      await Promise.all(ids.map((id, i) => queue.wait(i === 1 ? 'openai-transcribe' : 'transcribe', id!)));
      expect(most).toBe(1);
    });
  });
}
