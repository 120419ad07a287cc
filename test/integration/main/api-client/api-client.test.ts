import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, parseRetryAfter } from '../../../../src-main/api-client/api-errors.js';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import type { Reachability } from '../../../../src-main/api-client/api-client.js';
import { startTestServer, tempDir, waitForStatus, type TestServer } from '../../../support/test-server.js';
import { clientOf, shortSpeech, testAnalysisEngines, until } from '../main-test-support.js';

/** A loopback server answering with a script of responses, counting requests. */
async function scriptedServer(script: Array<(req: http.IncomingMessage, res: http.ServerResponse) => void>) {
  let calls = 0;
  const server = http.createServer((req, res) => {
    const step = script[Math.min(calls, script.length - 1)]!;
    calls++;
    req.resume();
    step(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const json = (status: number, body: unknown) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};
const dropConnection = (req: http.IncomingMessage) => req.socket.destroy();

async function failed(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('ApiClient retries', () => {
  it('retries a 5xx and then succeeds', async () => {
    const fake = await scriptedServer([
      json(503, { error_id: 'e1', error_code: ErrorCode.INTERNAL_ERROR, error_message: 'busy' }),
      json(502, {}),
      json(200, []),
    ]);
    try {
      await expect(clientOf(fake, 'k').listTranscriptions()).resolves.toEqual([]);
      expect(fake.calls()).toBe(3);
    } finally {
      await fake.close();
    }
  });

  it('retries a 429 (rate limited), and says what happened when the server keeps refusing', async () => {
    const limited = json(429, {
      error_id: 'r1',
      error_code: ErrorCode.RATE_LIMITED,
      error_message: 'Too many requests with this API key…',
    });
    const fake = await scriptedServer([limited, json(200, [])]);
    try {
      await expect(clientOf(fake, 'k').listTranscriptions()).resolves.toEqual([]);
      expect(fake.calls()).toBe(2);
    } finally {
      await fake.close();
    }
    const busy = await scriptedServer([limited]);
    try {
      const error = await failed(clientOf(busy, 'k').getTranscription('x'));
      expect(error.error.code).toBe('server');
      expect(error.error.reason).toBe('app.rate-limited');
    } finally {
      await busy.close();
    }
  });

  it("waits as long as the server's Retry-After asks, for every call of the client, and gives up at once when it asks too much", async () => {
    const limitedFor = (seconds: number) => (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds) });
      res.end(
        JSON.stringify({
          error_id: 'r1',
          error_code: ErrorCode.RATE_LIMITED,
          error_message: 'Too many requests with this API key…',
        }),
      );
    };
    const fake = await scriptedServer([limitedFor(7), json(200, [])]);
    const waits: number[] = [];
    try {
      const client = clientOf(fake, 'k', { wait: async (ms) => void waits.push(ms) });
      await expect(client.listTranscriptions()).resolves.toEqual([]);
      expect(fake.calls()).toBe(2);
      // Not the 20-50 ms backoff: the 7 s the server asked for.
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(6_000);
      // Another call at once waits for the rest of those 7 s before it asks.
      await expect(client.listTranscriptions()).resolves.toEqual([]);
      expect(waits).toHaveLength(2);
      expect(waits[1]).toBeGreaterThan(6_000);
    } finally {
      await fake.close();
    }
    const longer = await scriptedServer([limitedFor(3600)]);
    try {
      const error = await failed(clientOf(longer, 'k', { wait: async () => undefined }).listTranscriptions());
      expect(longer.calls()).toBe(1);
      expect(error.retryAfterMs).toBe(3_600_000);
      expect(error.error.reason).toBe('app.rate-limited');
    } finally {
      await longer.close();
    }
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 24 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('gives up after its retries with a server error that keeps the error id', async () => {
    const fake = await scriptedServer([
      json(500, { error_id: 'abc-123', error_code: ErrorCode.INTERNAL_ERROR, error_message: 'boom' }),
    ]);
    try {
      const error = await failed(clientOf(fake, 'k').getTranscription('x'));
      expect(fake.calls()).toBe(3); // 1 + 2 retries
      expect(error.error).toMatchObject({ code: 'server', reason: 'app.server-failed', errorId: 'abc-123' });
    } finally {
      await fake.close();
    }
  });

  it('retries a dropped connection on a safe request', async () => {
    const fake = await scriptedServer([dropConnection, json(200, [])]);
    try {
      await expect(clientOf(fake, 'k').listDictionaries()).resolves.toEqual([]);
      expect(fake.calls()).toBe(2);
    } finally {
      await fake.close();
    }
  });

  it("never retries a 4xx, and names the field the server complained about, in the contract's spelling", async () => {
    const fake = await scriptedServer([
      json(400, {
        error_id: 'v1',
        error_code: ErrorCode.VALIDATION_FAILED,
        error_message: 'Speaker count too low.',
        field: 'num_speakers',
      }),
    ]);
    try {
      const error = await failed(clientOf(fake, 'k').requestUpload({ filename: 'a.wav', num_speakers: 0 }));
      expect(fake.calls()).toBe(1);
      expect(error.error).toEqual({
        code: 'validation',
        field: 'numSpeakers',
        errorId: 'v1',
        reason: 'server.VALIDATION_FAILED',
        detail: 'Speaker count too low.',
      });
    } finally {
      await fake.close();
    }
  });

  it('keeps the path below the first field, mapping only its head', async () => {
    const fake = await scriptedServer([
      json(400, {
        error_id: 'v2',
        error_code: ErrorCode.VALIDATION_FAILED,
        error_message: 'Too long.',
        field: 'words.3.reading',
      }),
    ]);
    try {
      const error = await failed(clientOf(fake, 'k').requestUpload({ filename: 'a.wav' }));
      expect(error.error.field).toBe('words.3.reading');
    } finally {
      await fake.close();
    }
  });

  it('never guesses the field from the message text', async () => {
    const fake = await scriptedServer([
      json(400, {
        error_id: 'v3',
        error_code: ErrorCode.VALIDATION_FAILED,
        error_message: 'Invalid request: field "num_speakers" must be >= 1.',
      }),
    ]);
    try {
      const error = await failed(clientOf(fake, 'k').requestUpload({ filename: 'a.wav', num_speakers: 0 }));
      expect(error.error.code).toBe('validation');
      expect(error.error).not.toHaveProperty('field');
    } finally {
      await fake.close();
    }
  });

  it('puts a refused language on the language field, with or without the server naming it', async () => {
    const fake = await scriptedServer([
      json(400, { error_id: 'u1', error_code: ErrorCode.UNSUPPORTED_LANGUAGE, error_message: 'Cannot do ja.' }),
      json(400, {
        error_id: 'u2',
        error_code: ErrorCode.UNSUPPORTED_OPTION,
        error_message: 'No speakers.',
        field: 'max_speakers',
      }),
      json(400, { error_id: 'u3', error_code: ErrorCode.UNSUPPORTED_OPTION, error_message: 'No speakers.' }),
    ]);
    try {
      const client = clientOf(fake, 'k');
      expect((await failed(client.requestUpload({ filename: 'a.wav', language: 'ja' }))).error).toMatchObject({
        code: 'unsupported',
        field: 'language',
      });
      expect((await failed(client.requestUpload({ filename: 'a.wav', max_speakers: 3 }))).error).toMatchObject({
        code: 'unsupported',
        field: 'maxSpeakers',
      });
      expect((await failed(client.requestUpload({ filename: 'a.wav', max_speakers: 3 }))).error).not.toHaveProperty(
        'field',
      );
    } finally {
      await fake.close();
    }
  });

  it("fills the contract's paths with escaped ids", async () => {
    const seen: string[] = [];
    const fake = await scriptedServer([
      (req, res) => {
        seen.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      },
    ]);
    try {
      const client = clientOf(fake, 'k');
      await client.getTranscription('a/b c');
      await client.getReplacementRule('d?1', 'w#2');
      await client.requestTranslation('t', 'es');
      expect(seen).toEqual([
        'GET /api/v1/transcriptions/a%2Fb%20c',
        'GET /api/v1/dictionaries/d%3F1/blacklist_words/w%232',
        'POST /api/v1/transcriptions/t/translate',
      ]);
    } finally {
      await fake.close();
    }
  });

  it('does not repeat a non-idempotent create after a 5xx', async () => {
    const fake = await scriptedServer([
      json(500, { error_id: 'x', error_code: ErrorCode.INTERNAL_ERROR, error_message: 'boom' }),
    ]);
    try {
      await failed(clientOf(fake, 'k').createDictionary({ name: 'd' }));
      expect(fake.calls()).toBe(1);
    } finally {
      await fake.close();
    }
  });

  it('reports an unreachable server as offline, after retrying', async () => {
    const fake = await scriptedServer([json(200, [])]);
    await fake.close(); // nothing listens on that port any more
    const seen: Reachability[] = [];
    const error = await failed(clientOf(fake, 'k', { onReachability: (r) => seen.push(r) }).listTranscriptions());
    expect(error.error.code).toBe('offline');
    expect(error.networkCode).toBe('ECONNREFUSED');
    expect(error.error).toMatchObject({
      reason: 'app.offline-at',
      params: { host: new URL(fake.url).host },
      detail: 'connection refused',
    });
    expect(seen.at(-1)).toMatchObject({ state: 'offline' });
  });

  it('stops at once when aborted', async () => {
    const fake = await scriptedServer([() => {}]); // never answers
    try {
      const controller = new AbortController();
      const pending = clientOf(fake, 'k').listTranscriptions(1, { signal: controller.signal });
      controller.abort();
      expect((await failed(pending)).error.code).toBe('cancelled');
    } finally {
      await fake.close();
    }
  });
});

describe('ApiClient against kikitori-server', () => {
  let server: TestServer;
  let key: string;
  let wav: string;
  const dir = tempDir('kikitori-client-');

  beforeAll(async () => {
    server = await startTestServer({ runtime: { analysisEngines: await testAnalysisEngines() } });
    key = await server.key('team-a', 'alice', ['DELETE']);
    wav = await shortSpeech();
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('maps a refused key to an actionable unauthorized error', async () => {
    const seen: Reachability[] = [];
    const error = await failed(
      clientOf(server, 'not-a-key', { onReachability: (r) => seen.push(r) }).listTranscriptions(),
    );
    expect(error.status).toBe(401);
    expect(error.error.code).toBe('unauthorized');
    // A closed reason the renderer words in the UI's language; the server's own words are the detail.
    expect(error.error.reason).toBe('app.unauthorized');
    expect(error.error.detail).toEqual(expect.any(String));
    expect(error.error.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen.at(-1)).toEqual({ state: 'unauthorized', detail: error.error });
  });

  it('maps unknown ids, bad input and missing roles', async () => {
    const client = clientOf(server, key);
    expect((await failed(client.getTranscription('nope'))).error).toMatchObject({
      code: 'not-found',
      reason: 'app.not-found-transcription',
    });
    expect((await failed(client.getDictionary('nope'))).error.code).toBe('not-found');
    const bad = await failed(client.requestUpload({ filename: 'a.wav', min_speakers: 3, max_speakers: 2 }));
    expect(bad.error).toMatchObject({ code: 'validation', field: 'minSpeakers' });
    const language = await failed(client.requestUpload({ filename: 'a.wav', language: 'xx' }));
    expect(language.error).toMatchObject({ code: 'validation', field: 'language' });
    const item = await failed(client.requestUpload({ filename: 'a.wav', words: [{ word: 'a' }, { word: ' ' }] }));
    expect(item.error).toMatchObject({ code: 'validation', field: 'words.1.word' });
    const noRole = clientOf(server, await server.key('team-a', 'bob'));
    const ticket = await noRole.requestUpload({ filename: 'a.wav' });
    expect((await failed(noRole.deleteTranscription(ticket.transcription_id))).error.code).toBe('forbidden');
  });

  it('covers the dictionary API: dictionaries, words and blacklist words', async () => {
    const client = clientOf(server, key);
    const created = await client.createDictionary({
      name: 'Product names',
      words: [{ word: 'Kikitori', reading: 'key key tory' }],
    });
    expect(created).toMatchObject({
      name: 'Product names',
      is_temporary: false,
      words: [{ word: 'Kikitori', reading: 'key key tory' }],
    });
    const id = created.dictionary_id;
    expect((await client.updateDictionary(id, { name: 'Products' })).name).toBe('Products');
    const word = await client.addWord(id, { word: 'Zintrix' });
    const bulk = await client.addWords(id, [{ word: 'Alpha' }, { word: 'Beta', reading: 'bay ta' }]);
    expect(bulk.map((w) => w.word)).toEqual(['Alpha', 'Beta']);
    expect(await client.getWord(id, word.word_id)).toMatchObject({ word: 'Zintrix' });
    await client.deleteWord(id, word.word_id);
    expect((await failed(client.getWord(id, word.word_id))).error.code).toBe('not-found');

    const rule = await client.addReplacementRule(id, { pattern: 'key key tory', replacement: 'Kikitori' });
    const rules = await client.addReplacementRules(id, [{ pattern: 'gonna', replacement: 'going to' }]);
    expect(rules[0]).toMatchObject({ pattern: 'gonna', replacement: 'going to' });
    expect(await client.getReplacementRule(id, rule.blacklist_word_id)).toMatchObject({ pattern: 'key key tory' });
    await client.deleteReplacementRule(id, rule.blacklist_word_id);

    const full = await client.getDictionary(id);
    expect(full.words.map((w) => w.word).sort()).toEqual(['Alpha', 'Beta', 'Kikitori']);
    expect(full.blacklist_words?.map((b) => b.pattern)).toEqual(['gonna']);
    expect((await client.listAllDictionaries()).map((d) => d.dictionary_id)).toContain(id);
    await client.deleteDictionary(id);
    expect((await failed(client.getDictionary(id))).error.code).toBe('not-found');
  });

  it('covers the transcription API end to end: upload, transcribe, read, review, analyses, downloads, delete', async () => {
    const client = clientOf(server, key);
    const ticket = await client.requestUpload({ filename: 'budget.wav', language: 'en', words: [{ word: 'budget' }] });
    expect(ticket.audio_upload_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/upload\//);
    const progress: number[] = [];
    await client.uploadFile(ticket.audio_upload_url, wav, {
      contentType: 'audio/wav',
      chunkBytes: 16 * 1024,
      onProgress: (sent) => progress.push(sent),
    });
    expect(progress.at(-1)).toBe(fs.statSync(wav).size);
    expect(progress.length).toBeGreaterThan(1);

    const id = ticket.transcription_id;
    expect(['CONVERTING', 'IN_PROGRESS', 'COMPLETED']).toContain((await client.transcribe(id)).status);
    await waitForStatus(server, key, id, ['COMPLETED']);
    const record = await client.getTranscription(id);
    expect(record).toMatchObject({ status: 'COMPLETED', name: 'budget.wav' });
    expect((await client.listTranscriptions(1)).map((t) => t.transcription_id)).toContain(id);

    const document = await client.downloadTranscript(record.transcription_path!);
    expect(document.transcription_id).toBe(id);
    expect(document.text).toContain('budget');
    expect(await client.downloadTranscriptAs(record.transcription_path!, 'srt')).toMatch(/^1\n00:00:0\d,\d{3} --> /);
    expect(await client.downloadTranscriptAs(record.transcription_path!, 'vtt')).toMatch(/^WEBVTT/);
    expect(await client.downloadTranscriptAs(record.transcription_path!, 'txt')).toContain('budget');

    const audioCopy = path.join(dir, 'audio.wav');
    const downloaded = await client.downloadToFile(record.audio_path!, audioCopy);
    expect(downloaded.bytes).toBe(fs.statSync(wav).size);
    expect(fs.readFileSync(audioCopy).equals(fs.readFileSync(wav))).toBe(true);

    expect(await client.getReview(id)).toBeNull();
    await client.saveReview(id, 'The budget meeting is on Friday.');
    expect((await client.getReview(id))?.reviewed_text).toBe('The budget meeting is on Friday.');

    expect((await failed(client.getSummary(id))).error).toMatchObject({
      code: 'not-found',
      reason: 'app.not-found-analysis',
    });
    expect(await client.requestSummary(id)).toMatchObject({ transcription_id: id, is_async: true });
    expect(await client.requestEmotion(id)).toMatchObject({ is_async: true });
    expect((await client.requestTranslation(id, 'es')).status_url).toContain('language=es');
    const summary = await until(async () =>
      (await client.getSummary(id)).status === 'COMPLETED' ? client.getSummary(id) : null,
    );
    expect(summary.summarized_text).toContain('Overview');
    expect(summary.key_points?.[0]).toMatchObject({ segment_id: 0 });
    const emotion = await until(async () =>
      (await client.getEmotion(id)).status === 'COMPLETED' ? client.getEmotion(id) : null,
    );
    expect(emotion.emotions.at(-1)).toMatchObject({ segment_id: null, label: 'neutral' });
    const translation = await until(async () =>
      (await client.getTranslation(id, 'es')).status === 'COMPLETED' ? client.getTranslation(id, 'es') : null,
    );
    expect(translation).toMatchObject({ language: 'es', translated_text: expect.stringContaining('[es]') });

    await client.deleteTranscription(id);
    expect((await failed(client.getTranscription(id))).error.code).toBe('not-found');
  });
});
