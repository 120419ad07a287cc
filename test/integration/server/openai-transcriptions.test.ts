// POST /v1/audio/transcriptions over real HTTP: real multipart uploads of synthesized speech, ffmpeg,
// the default engine (pocketsphinx), and OpenAI's response shapes.
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

  it('needs an API key (Bearer)', async () => {
    expect((await postTranscription(server, null, speech, { model: 'whisper-1' })).json.error_code).toBe(ErrorCode.MISSING_API_KEY);
    const wrong = await postTranscription(server, 'kk_wrong', speech, { model: 'whisper-1' });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error_code).toBe(ErrorCode.INVALID_API_KEY);
  });

  it('rejects an unknown model, a missing file, an unsupported language, an unusable engine and an oversized file', async () => {
    const model = await postTranscription(server, key, speech, { model: 'gpt-9-ultra' });
    expect(model.status).toBe(400);
    expect(model.json.error_message).toMatch(/model "gpt-9-ultra".*whisper-1.*pocketsphinx/);
    const noFile = await postTranscription(server, key, null, { model: 'whisper-1' });
    expect(noFile.status).toBe(400);
    expect(noFile.json.error_message).toMatch(/"file"/);
    const language = await postTranscription(server, key, speech, { model: 'pocketsphinx', language: 'ja' });
    expect(language.status).toBe(400);
    expect(language.json.error_code).toBe(ErrorCode.UNSUPPORTED_LANGUAGE);
    const noModel = await postTranscription(server, key, speech, { model: 'whisper' });
    expect(noModel.status).toBe(503);
    expect(noModel.json.error_message).toMatch(/"whisper" cannot run on this server: No whisper model is installed.*models download/);
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
    expect(((await big.json()) as { error_code: number }).error_code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });
});
