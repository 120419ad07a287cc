// The remote engine against a real OpenAI-compatible service: another kikitori-server's
// /v1/audio/transcriptions (server B, pocketsphinx), used by server A's job pipeline.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { OpenAiRemoteEngine, toSegments } from '../../../../../src-server/engines/speech/openai-remote-engine.js';
import type { TranscriptDocument } from '../../../../../src-shared/transcript-document.js';
import { pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';
import { startOpenAiTestServer } from '../../../../support/openai-test-server.js';
import {
  engineRegistryFromEnv,
  startTestServer,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../../../support/test-server.js';

let b: TestServer;
let bKey: string;
let wav: string;

const request = (pcmPath: string) => ({
  pcmPath,
  language: 'en',
  vocabulary: [{ word: 'budget' }],
  signal: new AbortController().signal,
});

beforeAll(async () => {
  b = await startOpenAiTestServer();
  bKey = await b.key('remote-users');
  wav = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => b.close());

describe('OpenAiRemoteEngine', () => {
  it('transcribes through another kikitori-server: upload to A, words from B', async () => {
    const a = await startTestServer({
      runtime: {
        engines: engineRegistryFromEnv({
          KIKITORI_ENGINE_DEFAULT: 'remote',
          KIKITORI_REMOTE_ASR_BASE_URL: `${b.url}/v1`,
          KIKITORI_REMOTE_ASR_API_KEY: bKey,
          KIKITORI_REMOTE_ASR_LANGUAGES: 'en',
        }),
      },
    });
    try {
      const key = await a.key('acme');
      const ticket = await uploadFile(a, key, wav, { language: 'en' });
      await a.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
      const done = await waitForStatus(a, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
      expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
      const document = (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
      expect(document.engine).toMatchObject({ name: 'remote', transcription_model: 'default' });
      expect(document.engine.model).toBe(`whisper-1@${new URL(b.url).host}`);
      expect(document.text).toMatch(/budget meeting/);
      const words = document.segments.flatMap((s) => s.words);
      expect(words.every((w, i) => w.end >= w.start && (i === 0 || w.start >= words[i - 1]!.end))).toBe(true);
      expect(words.every((w) => w.confidence !== null && w.confidence >= 0 && w.confidence <= 1)).toBe(true);
    } finally {
      await a.close();
    }
  });

  it('fails permanently on a rejected key, retryably when the service is unreachable', async () => {
    const pcm = await pcmOf(wav);
    const badKey = new OpenAiRemoteEngine({ baseUrl: `${b.url}/v1`, apiKey: 'kk_not_a_key' });
    const refused = await badKey.recognize(request(pcm)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineError);
    expect(refused).toMatchObject({
      kind: 'unavailable',
      detail: expect.stringMatching(/HTTP 401.*KIKITORI_REMOTE_ASR_API_KEY/),
    });
    // The user's message names neither the host nor the service's answer; the detail (for the log) does.
    expect((refused as EngineError).message).not.toContain(new URL(b.url).host);
    expect((refused as EngineError).detail).toContain(new URL(b.url).host);

    const badModel = new OpenAiRemoteEngine({ baseUrl: `${b.url}/v1`, apiKey: bKey, model: 'no-such-model' });
    await expect(badModel.recognize(request(pcm))).rejects.toMatchObject({
      kind: 'bad-input',
      detail: expect.stringMatching(/HTTP 400/),
    });

    const port = await closedPort();
    const down = new OpenAiRemoteEngine({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'x' });
    const error = await down.recognize(request(pcm)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({
      kind: 'transient',
      detail: expect.stringMatching(/could not be reached \(ECONNREFUSED\)/),
    });
    expect((error as Error).message).toMatch(/could not be reached\. Try again later/);

    // A used-up quota on the service (429 insufficient_quota) is not worth retrying.
    const limited = await b.key('limited-users');
    await b.runtime.ctx.storageUsage.setQuotaOverride('limited-users', 1000);
    const overQuota = await new OpenAiRemoteEngine({ baseUrl: `${b.url}/v1`, apiKey: limited })
      .recognize(request(pcm))
      .catch((e: unknown) => e);
    expect(overQuota).toMatchObject({
      kind: 'unavailable',
      message: expect.stringMatching(/quota for this server is used up/),
      detail: expect.stringMatching(/HTTP 429.*storage quota/),
    });

    await expect(new OpenAiRemoteEngine({}).recognize(request(pcm))).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await new OpenAiRemoteEngine({}).checkUsable()).reason).toMatch(/KIKITORI_REMOTE_ASR_BASE_URL/);
  });

  it('maps verbose_json with or without words', () => {
    const withWords = toSegments(
      {
        segments: [
          { start: 0, end: 2, text: 'hello there' },
          { start: 2, end: 4, text: 'again' },
        ],
        words: [
          { word: ' hello', start: 0.1, end: 0.5 },
          { word: 'there', start: 0.6, end: 1 },
          { word: 'again', start: 2.2, end: 9 },
        ],
      },
      3,
    );
    expect(withWords.map((s) => s.words.map((w) => w.word))).toEqual([['hello', 'there'], ['again']]);
    expect(withWords[1]).toMatchObject({ end: 3, words: [{ start: 2.2, end: 3, confidence: null }] });

    const segmentsOnly = toSegments({ segments: [{ start: 1, end: 3, text: ' one three' }] }, 10);
    expect(segmentsOnly[0]!.words).toEqual([
      { word: 'one', start: 1, end: 1.75, confidence: null },
      { word: 'three', start: 1.75, end: 3, confidence: null },
    ]);
  });
});

/** A loopback port nobody listens on (connection refused at once). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
