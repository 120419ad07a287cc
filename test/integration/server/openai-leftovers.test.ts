// What POST /v1/audio/* leaves behind (issue 22, item 4; decision 0044): the transcript is taken out of
// the job's row as the waiting request reads it; a job whose attempt was cut short (a shutdown, or a
// crash and a takeover) fails and removes its audio instead of running again with nobody waiting; and a
// process sweeps the uploads and PCM files of such requests when it starts. Real servers on a data dir
// and database (and bucket, in postgres-s3) that outlive them, restarted as a crashed server would be.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sweepOpenAiLeftovers, UNQUEUED_UPLOAD_GRACE_MS } from '../../../src-server/jobs/openai-transcribe.js';
import type { OpenAiTranscribePayload } from '../../../src-server/jobs/job-queue.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { listJobs } from '../../support/test-jobs.js';
import {
  otherConnection,
  startTestServer,
  storedKeys,
  tempDir,
  testDatabaseEnv,
  testStorageEnv,
  toApiResponse,
  workLeftovers,
  type TestServer,
} from '../../support/test-server.js';

const run = promisify(execFile);
const ROUTE = '/v1/audio/transcriptions';

let speech: string;
let longSpeech: string;
beforeAll(async () => {
  speech = await synthesizeSpeech('the budget meeting moved to next week');
  const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
  longSpeech = path.join(tempDir(), 'long.wav');
  await run('sox', [await concatWithSilence([sentence, sentence], 1), longSpeech, 'repeat', '1']);
});

/** Servers of one test, on one data dir and database; each is closed as a process would end, the data kept. */
const running: TestServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.runtime.close().catch(() => undefined);
});

async function backend(storage: 'files' | 'run' = 'run') {
  const env = {
    ...(await testDatabaseEnv()),
    ...(storage === 'files' ? {} : await testStorageEnv()),
    KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
  };
  const dataDir = tempDir();
  return {
    start: async (runJobs = true) => {
      const server = await startTestServer({
        env,
        dataDir,
        runtime: { runJobs },
        ...(storage === 'files' ? { storage: 'files' as const } : {}),
      });
      running.push(server);
      return server;
    },
    stop: async (server: TestServer) => {
      running.splice(running.indexOf(server), 1);
      await server.runtime.close();
    },
  };
}

/** One request on its own connection: a kept-alive idle one would hold the server's close (app.close) for its keep-alive time. */
function post(server: TestServer, key: string, file: string) {
  const body = new FormData();
  body.append('model', 'whisper-1');
  body.append('file', new Blob([new Uint8Array(fs.readFileSync(file))]), path.basename(file));
  return fetch(server.url + ROUTE, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, connection: 'close' },
    body,
  }).then(toApiResponse);
}

const payload = (audioKey: string, teamId = 'acme'): OpenAiTranscribePayload => ({
  audioKey,
  engine: 'pocketsphinx',
  language: 'en',
  task: 'transcribe',
  model: 'whisper-1',
  vocabulary: [],
  teamId,
  dictionaryId: null,
  speakers: null,
});

const pcmFiles = (server: TestServer) => workLeftovers(server).filter((name) => /^openai-.*\.pcm$/.test(name));

describe('the OpenAI route leaves nothing behind', () => {
  it("takes the transcript out of the job's row once the request has read it", async () => {
    const { start } = await backend();
    const server = await start();
    const key = await server.key('acme');
    const answer = await post(server, key, speech);
    expect(answer.status).toBe(200);
    expect(answer.json.text).toMatch(/budget/);
    const [job, ...others] = await listJobs(server, { name: 'openai-transcribe' });
    expect(others).toEqual([]);
    expect(job).toMatchObject({ state: 'completed', output: null });
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(pcmFiles(server)).toEqual([]);
  });

  it('fails a job stopped by a shutdown, tells its waiter to send again, and does not run it at the next start', async () => {
    const { start, stop } = await backend();
    const first = await start();
    const key = await first.key('acme');
    const answer = post(first, key, longSpeech).catch((error: unknown) => error);
    await expect
      .poll(async () => (await listJobs(first, { name: 'openai-transcribe' }))[0]?.state, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe('active');
    await stop(first);
    // The waiter was still connected: it hears the server stopped, as a 503 OpenAI's clients retry.
    const answered = (await answer) as Awaited<ReturnType<typeof post>>;
    expect(answered.status).toBe(503);
    expect(answered.json.error).toMatchObject({ type: 'server_error', code: 'engine_unavailable' });
    expect(answered.json.error.message).toMatch(/stopped while working on this request.*Send the request again/);

    const second = await start();
    const [job] = await listJobs(second, { name: 'openai-transcribe' });
    expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await storedKeys(second, 'openai')).toEqual([]);
    expect(pcmFiles(second)).toEqual([]);
    // Give the second server's queue a few polls: the job stays failed, never started again.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await listJobs(second, { name: 'openai-transcribe' }))[0]).toMatchObject({ state: 'failed', attempts: 1 });
    expect(second.logLines.some((line) => line.includes('openai transcription timings'))).toBe(false);
  });

  it('fails, without running it, a job taken over after its worker crashed, and removes its audio', async () => {
    const { start, stop } = await backend();
    // An API process queues the job (and runs none); then the job looks as a crashed worker left it.
    const api = await start(false);
    const { storage, queue } = api.runtime.ctx;
    const folder = `openai/${randomUUID()}`;
    await storage.put(`${folder}/upload.wav`, Readable.from(fs.readFileSync(speech)));
    const jobId = (await queue.send('openai-transcribe', payload(`${folder}/upload.wav`), {
      singletonKey: `openai:${randomUUID()}`,
      maxAttempts: 1,
    }))!;
    const db = await otherConnection(api);
    if (api.runtime.db.dialect === 'sqlite') {
      await db.run(
        `UPDATE jobs SET state = 'active', attempts = 1, worker_id = 'elsewhere:1:gone', heartbeat_at = '2000-01-01T00:00:00.000Z' WHERE job_id = ?`,
        [jobId],
      );
    } else {
      // What pg-boss leaves when the worker of attempt 1 stopped heartbeating: the job in retry.
      await db.run(
        `UPDATE pgboss.job SET state = 'retry', started_on = now(), output = '{"value":{"message":"job heartbeat timeout"}}' WHERE id = ?::uuid`,
        [jobId],
      );
    }
    await db.close();
    fs.mkdirSync(path.join(api.dataDir, 'work'), { recursive: true });
    fs.writeFileSync(path.join(api.dataDir, 'work', `openai-${jobId}.pcm`), Buffer.alloc(1000));
    await stop(api);

    const worker = await start();
    await expect
      .poll(async () => (await listJobs(worker, { name: 'openai-transcribe' }))[0]?.state, {
        timeout: 60_000,
        interval: 100,
      })
      .toBe('failed');
    const lines = worker.logLines.map((line) => JSON.parse(line) as { msg: string; jobId?: string });
    expect(lines.filter((line) => line.jobId === jobId).map((line) => line.msg)).not.toContain(
      'openai transcription timings',
    );
    await expect.poll(() => storedKeys(worker, 'openai'), { timeout: 10_000, interval: 100 }).toEqual([]);
    expect(pcmFiles(worker)).toEqual([]);
  });

  it('sweeps, when it starts, the uploads and PCM files no unfinished job holds, and keeps an upload that may still be queued', async () => {
    // Files: an upload's age is its file's time, which the test sets back (the S3 case is below).
    const { start, stop } = await backend('files');
    const api = await start(false);
    const { storage, queue } = api.runtime.ctx;
    const [abandoned, recent, queued] = [randomUUID(), randomUUID(), randomUUID()];
    for (const id of [abandoned, recent, queued])
      await storage.put(`openai/${id}/upload.wav`, Readable.from(Buffer.alloc(2000, 1)));
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const id of [abandoned, queued])
      fs.utimesSync(path.join(api.dataDir, 'storage', 'openai', id, 'upload.wav'), hourAgo, hourAgo);
    const jobId = (await queue.send('openai-transcribe', payload(`openai/${queued}/upload.wav`), {
      singletonKey: `openai:${queued}`,
      maxAttempts: 1,
    }))!;
    const work = path.join(api.dataDir, 'work');
    fs.mkdirSync(work, { recursive: true });
    const strayPcm = `openai-${randomUUID()}.pcm`;
    for (const name of [strayPcm, `openai-${jobId}.pcm`]) fs.writeFileSync(path.join(work, name), Buffer.alloc(1000));
    await stop(api);

    const next = await start(false);
    expect(await storedKeys(next, 'openai')).toEqual(
      [`openai/${queued}/upload.wav`, `openai/${recent}/upload.wav`].sort(),
    );
    expect(pcmFiles(next)).toEqual([`openai-${jobId}.pcm`]);
    expect(next.logLines.some((line) => line.includes('removed what interrupted OpenAI requests left behind'))).toBe(
      true,
    );
  });

  it("sweeps the run's storage (S3 in postgres-s3) once an unqueued upload is older than the grace", async () => {
    const { start } = await backend();
    const api = await start(false);
    const { storage, queue, logger } = api.runtime.ctx;
    const [abandoned, queued] = [randomUUID(), randomUUID()];
    for (const id of [abandoned, queued])
      await storage.put(`openai/${id}/upload.wav`, Readable.from(Buffer.alloc(2000, 1)));
    await queue.send('openai-transcribe', payload(`openai/${queued}/upload.wav`), {
      singletonKey: `openai:${queued}`,
      maxAttempts: 1,
    });
    const deps = { storage, queue, logger, workDir: path.join(api.dataDir, 'work') };
    // Within the grace, both stay: the abandoned one might be a request about to queue its job.
    expect(await sweepOpenAiLeftovers(deps)).toEqual({ uploads: 0, workFiles: 0 });
    expect(await sweepOpenAiLeftovers(deps, Date.now() + UNQUEUED_UPLOAD_GRACE_MS + 1000)).toEqual({
      uploads: 1,
      workFiles: 0,
    });
    expect(await storedKeys(api, 'openai')).toEqual([`openai/${queued}/upload.wav`]);
  });
});
