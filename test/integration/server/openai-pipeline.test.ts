// POST /v1/audio/transcriptions on the one pipeline, through the official `openai` client against a real
// listening server: the caller's dictionary (forced replacements) and speaker labels apply as they do
// for /transcribe; the bounded wait queue answers 503 with Retry-After before reading an upload; and a
// DELETE reaches a transcription's running job through its AbortSignal.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI, { APIError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { admissionOf } from '../../../src-server/http/routes/openai/admission.js';
import { listJobs } from '../../support/test-jobs.js';
import { startTestServer, storedKeys, tempDir, uploadFile, type TestServer } from '../../support/test-server.js';

const run = promisify(execFile);

describe('the OpenAI route on the transcription pipeline', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
    key = await server.key('acme', 'alice', ['DELETE']);
  });
  afterAll(() => server.close());

  it("applies the caller's dictionary and labels speakers where asked", async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Finance' });
    const dictionaryId = dictionary.json.dictionary_id as string;
    expect(
      (
        await server.api(key, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, {
          pattern: 'budget',
          replacement: 'Q3 budget',
        })
      ).status,
    ).toBe(200);
    // Two clearly different voices, one after the other.
    const a = await synthesizeSpeech('the quarterly numbers look strong this time', undefined, { voice: 'espeak' });
    const b = await synthesizeSpeech('the budget meeting moved to next week', undefined, { voice: 'festival' });
    const dialogue = path.join(tempDir(), 'dialogue.wav');
    fs.copyFileSync(await concatWithSilence([a, b], 1), dialogue);

    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    // Kikitori's fields ride along as extra form fields, as any OpenAI client sends them.
    const verbose = (await client.audio.transcriptions.create({
      file: fs.createReadStream(dialogue),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
      dictionary_id: dictionaryId,
      num_speakers: 2,
    } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming<'verbose_json'>)) as unknown as {
      text: string;
      segments: Array<{ text: string; speaker?: string }>;
      replacements?: Array<{ pattern: string; replacement: string; count: number }>;
      engine: { speakers?: string };
    };
    expect(verbose.text).toMatch(/Q3 budget meeting/);
    expect(verbose.replacements).toEqual([
      expect.objectContaining({ pattern: 'budget', replacement: 'Q3 budget', count: 1 }),
    ]);
    expect(verbose.engine.speakers).toBe('embedded-mfcc');
    expect(new Set(verbose.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1', 'SPEAKER_2']));

    // Without the fields: no speakers, no replacements.
    const plain = await client.audio.transcriptions.create({
      file: fs.createReadStream(dialogue),
      model: 'whisper-1',
      language: 'en',
      response_format: 'verbose_json',
    });
    expect(plain.text).toMatch(/budget/);
    expect(plain.text).not.toMatch(/Q3/);
    expect(plain.segments?.every((s) => !('speaker' in s))).toBe(true);

    // The work ran as jobs of the shared queue, and the uploads were removed once answered.
    const jobs = await listJobs(server, { name: 'openai-transcribe' });
    expect(jobs.map(({ state }) => ({ state }))).toEqual([{ state: 'completed' }, { state: 'completed' }]);
    expect(await storedKeys(server, 'openai')).toEqual([]);
  });

  it("refuses a dictionary of another team with 404 in OpenAI's error body", async () => {
    const other = await server.key('globex', 'bob');
    const theirs = (await server.api(other, 'POST', '/api/v1/dictionaries', { name: 'Theirs' })).json
      .dictionary_id as string;
    const speech = await synthesizeSpeech('the budget meeting moved to next week');
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const error = await client.audio.transcriptions
      .create({
        file: fs.createReadStream(speech),
        model: 'whisper-1',
        dictionary_id: theirs,
      } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(404);
    expect((error as APIError).code).toBe('dictionary_not_found');
  });

  it('cancels a running transcription job when the transcription is deleted', async () => {
    const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
    const base = await concatWithSilence([sentence, sentence], 1);
    const longFile = path.join(tempDir(), 'long.wav');
    await run('sox', [base, longFile, 'repeat', '11']);
    const ticket = await uploadFile(server, key, longFile);
    const id = ticket.transcription_id;
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`)).status).toBe(200);
    await expect
      .poll(async () => (await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.status, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe('IN_PROGRESS');

    expect((await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`)).status).toBeLessThan(300);
    const [job, ...others] = await listJobs(server, { singletonKey: `transcribe:${id}` });
    expect(others).toEqual([]);
    expect(job?.state).toBe('cancelled');
    const lines = server.logLines.map((l) => JSON.parse(l) as { msg: string; jobId?: string; outcome?: string });
    const ofJob = lines.filter((l) => l.jobId === job!.jobId);
    expect(ofJob.map((l) => l.msg)).toContain('job cancelled');
    expect(ofJob.find((l) => l.msg === 'transcription timings')?.outcome).toBe('aborted');
    expect(ofJob.map((l) => l.msg)).not.toContain('job completed');
  });
});

describe("the OpenAI route's bounded wait queue", () => {
  let server: TestServer;
  afterAll(() => server.close());

  it('answers 503 with Retry-After beyond its places, before reading the upload, and frees a place when a client leaves', async () => {
    // One job slot and no waiting places: one request in flight fills the queue.
    server = await startTestServer({
      env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx', KIKITORI_JOB_CONCURRENCY: '1', KIKITORI_OPENAI_MAX_WAITING: '0' },
    });
    const key = await server.key('acme');
    const url = new URL(`${server.url}/v1/audio/transcriptions`);
    // A client that starts an upload and keeps it open holds the one place.
    const boundary = 'kikitori-held-upload';
    const held = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    });
    held.on('error', () => undefined);
    held.write(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    );
    held.write(Buffer.alloc(64 * 1024));
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const speech = await synthesizeSpeech('the budget meeting moved to next week');
    // The held request has its place once the server has taken it in (before its upload is read).
    await expect.poll(() => admissionOf(server.runtime.ctx).occupied(), { timeout: 10_000, interval: 50 }).toBe(1);
    const refused = (await client.audio.transcriptions
      .create({ file: fs.createReadStream(speech), model: 'whisper-1' })
      .then(
        () => null,
        (e: unknown) => e,
      )) as APIError;
    expect(refused).toBeInstanceOf(APIError);
    expect(refused.status).toBe(503);
    expect(refused.code).toBe('server_busy');
    expect(refused.type).toBe('server_error');
    expect(refused.message).toMatch(/busy.*Try again in about \d+ seconds/);
    expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The refused request's audio never reached a job.
    expect(await listJobs(server)).toEqual([]);

    // The holder gives up: its place is free again, and the next request is transcribed.
    held.destroy();
    await expect
      .poll(
        async () => {
          try {
            return (await client.audio.transcriptions.create({ file: fs.createReadStream(speech), model: 'whisper-1' }))
              .text;
          } catch (e) {
            return String(e);
          }
        },
        { timeout: 60_000, interval: 200 },
      )
      .toMatch(/budget/);
  });
});
