// POST /v1/audio/* against the team's storage quota and the disk's reserve (issue 22, items 4 and 8): both
// are checked before the body is read, from its Content-Length, and a body without one is cut off at what
// is left. Answered as OpenAI answers them: 429 insufficient_quota (which its clients must not retry) and
// 503 for a disk the server cannot fill. Hostile inputs: lying and malformed Content-Lengths, bodies
// past the quota, and another team's dictionary.
import fs from 'node:fs';
import net from 'node:net';
import OpenAI, { NotFoundError, RateLimitError } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { listJobs } from '../../support/test-jobs.js';
import { startTestServer, storedKeys, toApiResponse, type TestServer } from '../../support/test-server.js';

const ROUTE = '/v1/audio/transcriptions';

function form(file: Buffer, fields: Record<string, string> = { model: 'whisper-1' }): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  body.append('file', new Blob([new Uint8Array(file)]), 'speech.wav');
  return body;
}

/** A request written by hand on a socket: the status line and the body of the answer. */
function rawRequest(url: string, head: string, body: Buffer | string = ''): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(head);
      if (body.length > 0) socket.write(body);
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const end = answer.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(answer.slice(0, end));
      if (end >= 0 && length && answer.length >= end + 4 + Number(length[1])) {
        socket.destroy();
        resolve({ status: Number(answer.slice(9, 12)), body: answer.slice(end + 4, end + 4 + Number(length[1])) });
      }
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`connection closed without a whole answer: ${JSON.stringify(answer.slice(0, 200))}`)),
    );
  });
}

describe('the OpenAI route and the team quota', () => {
  let server: TestServer;
  let key: string;
  let other: string;
  let speech: Buffer;
  beforeAll(async () => {
    server = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
    key = await server.key('acme');
    other = await server.key('globex', 'bob');
    speech = fs.readFileSync(await synthesizeSpeech('the budget meeting moved to next week'));
    // Less than the file: acme cannot send it; globex keeps the server's default (no quota).
    await server.runtime.ctx.storageUsage.setQuotaOverride('acme', Math.floor(speech.length / 2));
  });
  afterAll(() => server.close());

  it("refuses a body whose Content-Length passes the quota before reading it, as OpenAI's insufficient_quota", async () => {
    const response = await toApiResponse(
      await fetch(server.url + ROUTE, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form(speech),
      }),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get('x-should-retry')).toBe('false');
    expect(response.json.error).toMatchObject({ type: 'insufficient_quota', code: 'insufficient_quota', param: null });
    expect(response.json.error.message).toMatch(/would take your team past its storage quota.*Delete transcriptions/);
    // Nothing was stored or queued.
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(await listJobs(server, { name: 'openai-transcribe' })).toEqual([]);

    // Another team is not held by acme's quota.
    const theirs = await fetch(server.url + ROUTE, {
      method: 'POST',
      headers: { authorization: `Bearer ${other}` },
      body: form(speech),
    });
    expect(theirs.status).toBe(200);
  });

  it('raises RateLimitError with code insufficient_quota in the official client, which does not retry it', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 2 });
    const before = server.logLines.filter((line) => line.includes('"error_code":4033')).length;
    const error = await client.audio.transcriptions
      .create({ file: new File([new Uint8Array(speech)], 'speech.wav'), model: 'whisper-1' })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'insufficient_quota', type: 'insufficient_quota' });
    expect(server.logLines.filter((line) => line.includes('"error_code":4033')).length - before).toBe(1);
  });

  it('cuts off a body without a Content-Length at what is left of the quota', async () => {
    // The form as a chunked body, so the quota is only known to be passed as it streams.
    const chunked = await rawRequest(
      server.url,
      `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
      Buffer.concat([
        ...[
          Buffer.from(
            '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n',
          ),
          speech,
          Buffer.from('\r\n--b--\r\n'),
        ].map((part) => Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])),
        Buffer.from('0\r\n\r\n'),
      ]),
    );
    expect(chunked.status).toBe(429);
    expect(JSON.parse(chunked.body).error).toMatchObject({ code: 'insufficient_quota' });
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(await listJobs(server, { name: 'openai-transcribe', payloadContains: '"teamId":"acme"' })).toEqual([]);
  });

  it('answers lying and malformed Content-Lengths without reading past them', async () => {
    // Declares far more than the quota and sends a few bytes: refused on the declaration, at once.
    const lying = await rawRequest(
      server.url,
      `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 9007199254740991\r\n\r\n`,
      '--b\r\n',
    );
    expect(lying.status).toBe(429);
    // Past 2^53 (Node's parser takes lengths up to 2^64 - 1): as large as it says, so refused as well.
    const huge = await rawRequest(
      server.url,
      `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 18446744073709551615\r\n\r\n`,
      '--b\r\n',
    );
    expect(huge.status).toBe(429);
    // Not a number, negative, or past 2^64: the HTTP parser refuses them, in OpenAI's body under /v1/.
    for (const length of ['abc', '-5', '99999999999999999999999']) {
      const malformed = await rawRequest(
        server.url,
        `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${other}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n`,
      );
      expect(malformed.status, length).toBe(400);
      expect(JSON.parse(malformed.body).error, length).toMatchObject({
        type: 'invalid_request_error',
        code: 'malformed_request',
      });
    }
    // Shorter than the body: the form is cut short, and what follows is not a request: 400 either way.
    const jobsBefore = (await listJobs(server, { name: 'openai-transcribe' })).length;
    const short = await rawRequest(
      server.url,
      `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${other}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10\r\n\r\n`,
      '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b--\r\n',
    );
    expect(short.status, short.body).toBe(400);
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(await listJobs(server, { name: 'openai-transcribe' })).toHaveLength(jobsBefore);
  });

  it("refuses another team's dictionary with 404 naming dictionary_id, before any job", async () => {
    const theirs = (await server.api(other, 'POST', '/api/v1/dictionaries', { name: 'Theirs' })).json
      .dictionary_id as string;
    const client = new OpenAI({ apiKey: other, baseURL: `${server.url}/v1`, maxRetries: 0 });
    const own = await client.audio.transcriptions.create({
      file: new File([new Uint8Array(speech)], 's.wav'),
      model: 'whisper-1',
      dictionary_id: theirs,
    } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming);
    expect(own.text).toMatch(/budget/);
    const stranger = await server.key('initech', 'eve');
    const jobsBefore = (await listJobs(server, { name: 'openai-transcribe' })).length;
    const error = await new OpenAI({
      apiKey: stranger,
      baseURL: `${server.url}/v1`,
      maxRetries: 0,
    }).audio.transcriptions
      .create({
        file: new File([new Uint8Array(speech)], 's.wav'),
        model: 'whisper-1',
        dictionary_id: theirs,
      } as OpenAI.Audio.TranscriptionCreateParamsNonStreaming)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'dictionary_not_found', param: 'dictionary_id' });
    expect((await listJobs(server, { name: 'openai-transcribe' })).length).toBe(jobsBefore);
  });
});

describe('the OpenAI route and the disk reserve', () => {
  let server: TestServer;
  let key: string;
  let speech: Buffer;
  /** What the data dir's file system reports as free. */
  let free = 0;
  const reserve = 100_000_000;
  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx', KIKITORI_MIN_FREE_DISK_BYTES: String(reserve) },
      // As the real statfs, the answer comes on a later turn of the event loop (the parser has then read
      // what had arrived of the request).
      runtime: { freeSpace: () => new Promise((resolve) => setImmediate(() => resolve(free))) },
    });
    key = await server.key('acme');
    speech = fs.readFileSync(await synthesizeSpeech('the budget meeting moved to next week'));
  });
  afterAll(() => server.close());
  afterEach(() => (free = 0));

  // Decision 0048: every early answer follows sendError's one rule: the connection is kept, and what is
  // left of the body is discarded. A refused body that has all arrived leaves nothing to discard and no
  // reason to close (the route used to say `Connection: close` on its own).
  it('keeps the connection after refusing a body that had all arrived: the next request on it is answered', async () => {
    free = reserve + 100;
    const body =
      '--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n' +
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n' +
      'x'.repeat(500) +
      '\r\n--b--\r\n';
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    const answers: string[] = [];
    let received = '';
    let closed = false;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      received += chunk;
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        const length = end >= 0 ? /content-length: *(\d+)/i.exec(received.slice(0, end)) : null;
        if (!length || received.length < end + 4 + Number(length[1])) break;
        answers.push(received.slice(0, end + 4 + Number(length[1])));
        received = received.slice(end + 4 + Number(length[1]));
      }
    });
    socket.on('close', () => (closed = true));
    socket.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      // Head and body in one write: the body has all arrived when the route refuses it on its length.
      socket.write(
        `POST ${ROUTE} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      await expect.poll(() => answers.length > 0 || closed, { timeout: 10_000, interval: 20 }).toBe(true);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 503 /);
      expect(answers[0]).toMatch(/"code":"insufficient_storage"/);
      expect(answers[0]).not.toMatch(/\r\nconnection: *close\r\n/i);
      socket.write(`GET /v1/models HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`);
      await expect.poll(() => answers.length > 1 || closed, { timeout: 10_000, interval: 20 }).toBe(true);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      socket.destroy();
    }
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(await listJobs(server, { name: 'openai-transcribe' })).toEqual([]);
  });

  it('refuses a body the disk cannot hold beyond its reserve with 503, before reading it', async () => {
    free = reserve + 1000;
    const response = await toApiResponse(
      await fetch(server.url + ROUTE, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form(speech),
      }),
    );
    expect(response.status).toBe(503);
    expect(response.json.error).toMatchObject({ type: 'server_error', code: 'insufficient_storage', param: null });
    expect(response.json.error.message).toMatch(/not have enough free disk space/);
    expect(await storedKeys(server, 'openai')).toEqual([]);
    expect(await listJobs(server, { name: 'openai-transcribe' })).toEqual([]);

    // With the space there, the same request is transcribed.
    free = 10 * reserve;
    const ok = await toApiResponse(
      await fetch(server.url + ROUTE, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
        body: form(speech),
      }),
    );
    expect(ok.status).toBe(200);
    expect(ok.json.text).toMatch(/budget/);
  });
});
