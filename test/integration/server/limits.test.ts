// The server's limits over real HTTP (decision 0026): the audio duration cap on real FLAC and WAV files,
// the free-disk checks (the free-space reader is the one boundary replaced), the timeouts on raw sockets,
// and the rate limits. The per-team storage quota, kept in the database, is in storage-quota.test.ts.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { synthesizeSpeech, understatedFlac } from '../../support/audio-fixtures.js';
import type { EngineRegistry } from '../../../src-server/engines/engine-registry.js';
import type { SpeechEngine } from '../../../src-server/engines/speech/speech-engine.js';
import type { TranscriptionModel } from '../../../src-server/domain/records.js';
import { listJobs } from '../../support/test-jobs.js';
import {
  engineRegistryFromEnv,
  startTestServer,
  tempDir,
  uploadFile,
  waitForStatus,
  workLeftovers,
  type TestServer,
} from '../../support/test-server.js';

const run = promisify(execFile);
const dir = tempDir('kikitori-limits-');
const GB = 1e9;

/** How many attempts the queue made at the job of this transcription. */
async function jobAttempts(server: TestServer, transcriptionId: string): Promise<number | undefined> {
  const [job] = await listJobs(server, { payloadContains: transcriptionId });
  return job?.attempts;
}

/** `seconds` of digital silence: FLAC (tiny: under the size that is decoded without a probe), or 44.1 kHz stereo WAV (big: probed first). */
async function silence(name: string, seconds: number): Promise<string> {
  const file = path.join(dir, name);
  const format = name.endsWith('.flac') ? ['-r', '16000', '-c', '1'] : ['-r', '44100', '-c', '2', '-b', '16'];
  await run('sox', ['-n', ...format, file, 'trim', '0', String(seconds)]);
  return file;
}

/** Bytes written to a raw socket, and what the server answers until it closes the connection. */
function rawExchange(
  url: string,
  write: (socket: net.Socket) => void,
): Promise<{ received: string; closedBy: 'server' }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => write(socket));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ received, closedBy: 'server' }));
  });
}

const transcribe = (server: TestServer, key: string, id: string) =>
  server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
const ticket = (server: TestServer, key: string, filename = 'meeting.flac') =>
  server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename });

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('maximum audio duration', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_MAX_AUDIO_SECONDS: '5', KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' },
    });
    key = await server.key('acme');
  });
  afterAll(() => server.close());

  it('fails a small recording over the limit, measured by decoding it (at most a second past the limit)', async () => {
    const flac = await silence('long.flac', 60);
    expect(fs.statSync(flac).size).toBeLessThan(4 * 1024 * 1024);
    const { transcription_id: id } = await uploadFile(server, key, flac);
    expect((await transcribe(server, key, id)).status).toBe(200);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.status).toBe('FAILED');
    expect(ended.failure_reason).toMatch(/^This recording is longer than the 5-second limit of this server\. Split it/);
    // The closed code beside the text, for clients to word in their own language (issue 27).
    expect(ended.failure_code).toBe('bad-input');
    // Bad input fails at once, and nothing of the decode is left behind.
    expect(await jobAttempts(server, id)).toBe(1);
    expect(workLeftovers(server)).toEqual([]);
  });

  it('fails a large recording at the probe, before decoding', async () => {
    const wav = await silence('long.wav', 30);
    expect(fs.statSync(wav).size).toBeGreaterThan(4 * 1024 * 1024);
    const { transcription_id: id } = await uploadFile(server, key, wav);
    await transcribe(server, key, id);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.status).toBe('FAILED');
    expect(ended.failure_reason).toMatch(/longer than the 5-second limit/);
    expect(server.logLines.some((line) => line.includes('duration 30 s, over KIKITORI_MAX_AUDIO_SECONDS=5'))).toBe(
      true,
    );
    expect(workLeftovers(server)).toEqual([]);
  });

  it('fails a recording whose header understates its length, decoding only a second past the limit', async () => {
    const flac = await understatedFlac(path.join(dir, 'lying.flac'));
    const { transcription_id: id } = await uploadFile(server, key, flac);
    await transcribe(server, key, id);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.status).toBe('FAILED');
    expect(ended.failure_reason).toMatch(/longer than the 5-second limit/);
    expect(server.logLines.some((line) => line.includes('decoded more than KIKITORI_MAX_AUDIO_SECONDS=5'))).toBe(true);
  });

  it('transcribes a recording within the limit', async () => {
    const speech = await synthesizeSpeech('hello world');
    const { transcription_id: id } = await uploadFile(server, key, speech);
    await transcribe(server, key, id);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.failure_reason).toBeNull();
    expect(ended.failure_code).toBeNull();
    expect(ended.status).toBe('COMPLETED');
  });
});

describe('free disk space', () => {
  let server: TestServer;
  let key: string;
  /** What the data dir's file system reports as free; each test sets it. */
  let free: number[] = [];
  const reserve = 100_000_000;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_MIN_FREE_DISK_BYTES: String(reserve), KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' },
      runtime: { freeSpace: async () => (free.length > 1 ? free.shift()! : free[0]!) },
    });
    key = await server.key('acme');
  });
  afterAll(() => server.close());
  afterEach(() => (free = []));

  it('retries a decode that finds the disk full, and fails with a clear reason when it stays full', async () => {
    const flac = await silence('full.flac', 2);
    free = [10 * GB];
    const { transcription_id: id } = await uploadFile(server, key, flac);
    free = [reserve];
    await transcribe(server, key, id);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.status).toBe('FAILED');
    expect(ended.failure_reason).toMatch(
      /^There is not enough free disk space on the server to convert this recording\. Try again later/,
    );
    expect(await jobAttempts(server, id)).toBe(3);
    expect(workLeftovers(server)).toEqual([]);
  });

  it('completes when space frees up before the next attempt', async () => {
    const speech = await synthesizeSpeech('the disk has room again');
    free = [10 * GB];
    const { transcription_id: id } = await uploadFile(server, key, speech);
    free = [reserve, 10 * GB];
    await transcribe(server, key, id);
    const ended = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.failure_reason).toBeNull();
    expect(ended.status).toBe('COMPLETED');
    expect(await jobAttempts(server, id)).toBe(2);
  });
});

// The server checks the free space when it receives an upload itself (file storage; in S3 mode the client
// PUTs to the store, and the server's disk never holds the upload).
describe('free disk space, for an upload the server stores', () => {
  let server: TestServer;
  let key: string;
  /** What the data dir's file system reports as free; each test sets it. */
  let free: number[] = [];
  const reserve = 100_000_000;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_MIN_FREE_DISK_BYTES: String(reserve), KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' },
      runtime: { freeSpace: async () => (free.length > 1 ? free.shift()! : free[0]!) },
      storage: 'files',
    });
    key = await server.key('acme');
  });
  afterAll(() => server.close());
  afterEach(() => (free = []));

  it('refuses an upload the disk cannot hold beyond its reserve with 507, storing nothing', async () => {
    const flac = await silence('short.flac', 2);
    free = [reserve + fs.statSync(flac).size - 1];
    const { json: t } = await ticket(server, key);
    const put = await fetch(t.audio_upload_url, { method: 'PUT', body: fs.readFileSync(flac) });
    expect(put.status).toBe(507);
    const body = (await put.json()) as { error_code: number; error_message: string };
    expect(body.error_code).toBe(ErrorCode.INSUFFICIENT_STORAGE);
    expect(body.error_message).toMatch(/not have enough free disk space to store this file/);
    expect(fs.existsSync(path.join(server.dataDir, 'storage', 'audio', t.transcription_id))).toBe(false);
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${t.transcription_id}`)).json.upload_status).not.toBe(
      'COMPLETED',
    );

    // Once space is free, the same URL takes the file.
    free = [10 * GB];
    expect((await fetch(t.audio_upload_url, { method: 'PUT', body: fs.readFileSync(flac) })).status).toBe(200);
  });
});

let delayedRecognitions = 0;
/** The real engines, each recognition starting 2.5 s late: longer than the 1 s idle timeout, with no byte sent meanwhile. */
function slowerThanIdle(real: EngineRegistry): EngineRegistry {
  const bound = <T extends object>(target: T, prop: string | symbol) => {
    const value: unknown = Reflect.get(target, prop);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  const delayed = (engine: SpeechEngine) =>
    new Proxy(engine, {
      get: (target, prop) =>
        prop === 'recognize'
          ? async (input: Parameters<SpeechEngine['recognize']>[0]) => {
              await new Promise((resolve) => setTimeout(resolve, 2500));
              delayedRecognitions++;
              return target.recognize(input);
            }
          : bound(target, prop),
    });
  // Jobs pick their engine by model (speechFor); the OpenAI route's jobs by name (speechEngines).
  const byName = new Map([...real.speechEngines].map(([name, engine]) => [name, delayed(engine)]));
  return new Proxy(real, {
    get: (target, prop) =>
      prop === 'speechFor'
        ? (model: TranscriptionModel) => delayed(target.speechFor(model))
        : prop === 'speechEngines'
          ? byName
          : bound(target, prop),
  });
}

describe('timeouts', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_HEADERS_TIMEOUT: '1', KIKITORI_IDLE_TIMEOUT: '1' },
      runtime: { engines: slowerThanIdle(engineRegistryFromEnv({ KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' })) },
      // A stalled upload is one to the server's own upload route (files): in S3 mode the client PUTs to the store.
      storage: 'files',
    });
    key = await server.key('acme');
  });
  afterAll(() => server.close());

  it('closes a connection that trickles its headers (slow-loris) with 408, and still serves others', async () => {
    let timer: NodeJS.Timeout | undefined;
    const { received } = await rawExchange(server.url, (socket) => {
      socket.write('GET /api/v1/transcriptions HTTP/1.1\r\nHost: localhost\r\n');
      // A header byte every 200 ms keeps the socket busy, so only the headers deadline ends it.
      let n = 0;
      timer = setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: a\r\n`), 200);
    });
    clearInterval(timer);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)).error_code).toBe(ErrorCode.REQUEST_TIMEOUT);

    const normal = await server.api(key, 'GET', '/api/v1/transcriptions');
    expect(normal.status).toBe(200);
  });

  it('closes an upload that stalls, and still serves others', async () => {
    const { json: t } = await ticket(server, key);
    const url = new URL(t.audio_upload_url);
    const { received } = await rawExchange(server.url, (socket) => {
      socket.write(`PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n`);
      socket.write(Buffer.alloc(1000));
      // ...and nothing more.
    });
    expect(received).toBe('');
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${t.transcription_id}`)).json.upload_status).not.toBe(
      'COMPLETED',
    );
    expect((await fetch(t.audio_upload_url, { method: 'PUT', body: Buffer.alloc(5000, 1) })).status).toBe(200);
  });

  it('keeps the connection of a client waiting for the server past the idle timeout (a synchronous transcription)', async () => {
    const speech = await synthesizeSpeech('the server takes its time to answer this one');
    const form = new FormData();
    form.append('file', await fs.openAsBlob(speech), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'json');
    const response = await fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { text: string }).text.length).toBeGreaterThan(0);
    expect(delayedRecognitions).toBe(1);
  });
});

describe('rate limits', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { KIKITORI_RATE_LIMIT_PER_KEY: '3', KIKITORI_RATE_LIMIT_PER_IP: '2' } });
  });
  afterAll(() => server.close());

  it("answers 429 with Retry-After and the error body past a key's budget; another key is not affected", async () => {
    const busy = await server.key('acme', 'alice');
    const calm = await server.key('acme', 'bob');
    for (let i = 0; i < 3; i++) {
      const allowed = await server.api(busy, 'GET', '/api/v1/transcriptions');
      expect(allowed.status).toBe(200);
      expect([allowed.headers.get('x-ratelimit-limit'), allowed.headers.get('x-ratelimit-remaining')]).toEqual([
        '3',
        String(2 - i),
      ]);
    }
    const limited = await server.api(busy, 'GET', '/api/v1/dictionaries');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.json).toEqual({
      error_id: expect.any(String),
      error_code: ErrorCode.RATE_LIMITED,
      error_message: expect.stringMatching(
        /^Too many requests with this API key: this server allows 3 a minute\. Wait \d+ seconds? \(the Retry-After header\) and try again\.$/,
      ),
    });
    expect((await server.api(calm, 'GET', '/api/v1/transcriptions')).status).toBe(200);

    // The OpenAI-compatible routes share the key's budget and answer in OpenAI's shape.
    const openai = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${busy}` } });
    expect(openai.status).toBe(429);
    expect(Number(openai.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await openai.json()).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limited', param: null },
    });
  });

  it('limits requests without a key by address, and never /healthz', async () => {
    for (let i = 0; i < 5; i++) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(200);
    const limited = await fetch(`${server.url}/openapi.json`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    const body = (await limited.json()) as { error_code: number; error_message: string };
    expect(body.error_code).toBe(ErrorCode.RATE_LIMITED);
    expect(body.error_message).toMatch(/^Too many requests from your address/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
