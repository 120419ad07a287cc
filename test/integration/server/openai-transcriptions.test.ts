// POST /v1/audio/transcriptions over real HTTP: real multipart uploads of synthesized speech, ffmpeg,
// the default engine (pocketsphinx), and OpenAI's response shapes.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { postTranscription, startOpenAiTestServer } from '../../support/openai-test-server.js';
import type { TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let speech: string;

beforeAll(async () => {
  server = await startOpenAiTestServer({ env: { KIKITORI_MAX_UPLOAD_BYTES: String(2 * 1024 * 1024) } });
  key = await server.key('acme');
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => server.close());

describe('POST /v1/audio/transcriptions', () => {
  it('answers json with the recognized text', async () => {
    const response = await postTranscription(server, key, speech, { model: 'whisper-1' });
    expect(response.status).toBe(200);
    expect(Object.keys(response.json)).toEqual(['text']);
    expect(response.json.text).toMatch(/budget/);
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(openapi.paths['/v1/audio/transcriptions']).toHaveProperty('post');
  });

  it('answers verbose_json with segments and words in time order', async () => {
    const response = await postTranscription(server, key, speech, {
      model: 'whisper-1',
      language: 'en',
      prompt: 'budget, meeting',
      response_format: 'verbose_json',
      'timestamp_granularities[]': ['word', 'segment'],
    });
    expect(response.status).toBe(200);
    const body = response.json;
    expect(body).toMatchObject({ task: 'transcribe', language: 'english', engine: { name: 'pocketsphinx' } });
    expect(body.duration).toBeGreaterThan(1);
    expect(body.segments.length).toBeGreaterThan(0);
    expect(body.segments[0]).toMatchObject({ id: 0, temperature: 0, tokens: [] });
    expect(body.words.map((w: { word: string }) => w.word)).toContain('budget');
    let last = 0;
    for (const w of body.words) {
      expect(w.start).toBeGreaterThanOrEqual(last);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(body.duration);
      expect(w.probability).toBeGreaterThanOrEqual(0);
      last = w.end;
    }
    expect(body.text).toBe(body.segments.map((s: { text: string }) => s.text).join(' '));
  });

  it('answers srt and text as plain text', async () => {
    const srt = await postTranscription(server, key, speech, { model: 'pocketsphinx', response_format: 'srt' });
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(srt.text).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n.*budget/);
    const text = await postTranscription(server, key, speech, { response_format: 'text' });
    expect(text.text).toMatch(/budget.*\n$/);
  });

  it("needs an API key (Bearer), and answers in OpenAI's error body", async () => {
    const missing = await postTranscription(server, null, speech, { model: 'whisper-1' });
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({
      error: {
        message: expect.stringMatching(/No API key was sent/),
        type: 'authentication_error',
        param: null,
        code: 'missing_api_key',
        error_id: expect.any(String),
      },
    });
    const wrong = await postTranscription(server, 'kk_wrong', speech, { model: 'whisper-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key' });
    expect(server.logLines.some((line) => line.includes(wrong.json.error.error_id))).toBe(true);
  });

  // Found by `npm run drill`: the form parser's own errors were answered 500.
  it("answers 400 in OpenAI's body to a multipart body without a boundary, or cut short", async () => {
    for (const url of ['/v1/audio/transcriptions', '/v1/audio/translations']) {
      const noBoundary = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data' },
        body: 'x',
      });
      expect(noBoundary.status, url).toBe(400);
      expect(await noBoundary.json()).toEqual({
        error: {
          message: expect.stringMatching(/^The multipart body is not usable: Multipart: Boundary not found/),
          type: 'invalid_request_error',
          param: null,
          code: 'validation_failed',
          error_id: expect.any(String),
        },
      });
      const cutShort = await fetch(`${server.url}${url}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'multipart/form-data; boundary=xyz' },
        body: '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1',
      });
      expect(cutShort.status, url).toBe(400);
      expect(await cutShort.json()).toMatchObject({
        error: {
          type: 'invalid_request_error',
          code: 'validation_failed',
          message: expect.stringMatching(/^The multipart body is not usable/),
        },
      });
    }
  });

  it("answers OpenAI's error body for unknown /v1/ routes, and the spec's body elsewhere", async () => {
    const unknown = await fetch(`${server.url}/v1/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'route_not_found', param: null },
    });
    const api = await server.api(key, 'GET', '/api/v1/no-such-thing');
    expect(api.status).toBe(404);
    expect(api.json).toMatchObject({ error_code: ErrorCode.ROUTE_NOT_FOUND });
  });

  it('rejects an unknown model, a missing file, an unsupported language, an unusable engine and an oversized file', async () => {
    const model = await postTranscription(server, key, speech, { model: 'gpt-9-ultra' });
    expect(model.status).toBe(400);
    expect(model.json.error).toMatchObject({
      param: 'model',
      code: 'validation_failed',
      type: 'invalid_request_error',
    });
    expect(model.json.error.message).toMatch(/model "gpt-9-ultra".*whisper-1.*pocketsphinx/);
    const noFile = await postTranscription(server, key, null, { model: 'whisper-1' });
    expect(noFile.status).toBe(400);
    expect(noFile.json.error).toMatchObject({ param: 'file', code: 'validation_failed' });
    expect(noFile.json.error.message).toMatch(/"file"/);
    const language = await postTranscription(server, key, speech, { model: 'pocketsphinx', language: 'ja' });
    expect(language.status).toBe(400);
    expect(language.json.error).toMatchObject({ param: 'language', code: 'unsupported_language' });
    const noModel = await postTranscription(server, key, speech, { model: 'whisper' });
    expect(noModel.status).toBe(503);
    expect(noModel.json.error).toMatchObject({ type: 'server_error', code: 'engine_unavailable', param: null });
    // In the user's terms; the engine and why it cannot run are in the job runner's log line.
    expect(noModel.json.error.message).toMatch(
      /^Speech recognition with a downloaded model is not set up on this server\..*models download/,
    );
    expect(noModel.json.error.message).not.toMatch(/whisper/i);
    expect(
      server.logLines.filter((line) => line.includes('"detail":"whisper: No whisper model is installed')).length,
    ).toBeGreaterThan(0);
    const big = await fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: (() => {
        const form = new FormData();
        form.append('model', 'whisper-1');
        form.append('file', new Blob([new Uint8Array(3 * 1024 * 1024)]), 'big.wav');
        return form;
      })(),
    });
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('lists only the models whose engine can run, and refuses translations no configured engine can do', async () => {
    const models = await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(models.status).toBe(200);
    const list = (await models.json()) as { object: string; data: { id: string }[] };
    expect(list.object).toBe('list');
    // No whisper model is installed here, so whisper is not served.
    expect(list.data.map((m) => m.id)).toEqual(['whisper-1', 'diarization-high', 'pocketsphinx']);

    const form = new FormData();
    form.append('file', await fs.openAsBlob(speech), 'speech.wav');
    form.append('model', 'whisper-1');
    const refused = await fetch(`${server.url}/v1/audio/translations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { param: string; code: string; message: string } };
    expect(body.error).toMatchObject({ param: 'model', code: 'unsupported_option' });
    expect(body.error.message).toMatch(/cannot translate speech into English/);
  });
});
