// Honest languages over real HTTP (docs/decisions/0018-languages.md): a language that cannot be
// served is refused by name with what to do, never replaced; an empty request with an engine that
// cannot detect records the engine's language and the ticket says so; with whisper the record takes
// the language the engine reported. The whisper model has random weights (test/support/ggml-model.ts):
// it recognizes nothing, so these tests compare the record with what the engine reported, never words.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import {
  engineRegistryFromEnv,
  startTestServer,
  tempDir,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

const run = promisify(execFile);
let scratch: string;

beforeAll(() => {
  scratch = tempDir();
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const ticket = (server: TestServer, key: string, body: Record<string, unknown>) =>
  server.api(key, 'POST', '/api/v1/transcriptions/upload', body);

async function transcribe(server: TestServer, key: string, id: string) {
  await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
  const done = await waitForStatus(server, key, id, ['COMPLETED', 'FAILED']);
  expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
  const document = (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
  return { record: done.json as { language: string[]; engine: string }, document };
}

describe('languages with the built-in engine (English only, cannot detect)', () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
    key = await server.key('acme');
  });
  afterAll(() => server.close());

  it('records the engine language explicitly when none is asked for, and the ticket says so', async () => {
    const response = await ticket(server, key, { filename: 'a.wav' });
    expect(response.status).toBe(200);
    expect(response.json.language).toEqual(['en']);
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${response.json.transcription_id}`);
    expect(record.json.language).toEqual(['en']);
  });

  it('answers a requested language as asked, in the ticket and the record', async () => {
    const response = await ticket(server, key, { filename: 'a.wav', language: 'EN' });
    expect(response.json.language).toEqual(['en']);
  });

  it.each([
    [
      'ja',
      'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    ],
    [
      ['en', 'ja', 'ko'],
      'Japanese and Korean need a speech model that knows them: install one on the server (kikitori-server models download base), then try again.',
    ],
    [
      'zu',
      'Zulu cannot be transcribed here: no speech model knows it. Choose the language spoken in the recording from the list.',
    ],
  ])('refuses %j by name, with what to do, and names the engine only in the log', async (language, message) => {
    const response = await ticket(server, key, { filename: 'a.wav', language });
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error_code: ErrorCode.UNSUPPORTED_LANGUAGE,
      error_message: message,
      field: 'language',
    });
    expect(response.json.error_message).not.toMatch(/pocketsphinx|engine/);
    const logged = server.logLines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.error_id === response.json.error_id);
    expect(logged?.detail).toMatch(/speech engine "pocketsphinx" recognizes en; asked for/);
  });

  it("tells an OpenAI client how to install a model on the server, not where the app's Settings are", async () => {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(await synthesizeSpeech('Good morning.')), 'speech.wav');
    form.append('model', 'whisper-1');
    form.append('language', 'ja');
    const refused = await fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { param: string; message: string } };
    expect(body.error).toMatchObject({
      param: 'language',
      message:
        'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    });
  });
});

describe('languages with whisper (detects)', () => {
  let server: TestServer;
  let key: string;
  let speech: string;
  beforeAll(async () => {
    const model = await randomWhisperModel();
    speech = await synthesizeSpeech('Please call Stella and ask her to bring these things with her from the store.');
    server = await startTestServer({
      runtime: {
        engines: engineRegistryFromEnv({
          KIKITORI_ENGINE_DEFAULT: 'whisper',
          KIKITORI_WHISPER_MODEL: model,
          KIKITORI_WHISPER_THREADS: '1',
        }),
      },
    });
    key = await server.key('acme');
  });
  afterAll(() => server.close());

  it('leaves the language to detection, and the record takes what the engine reported, not "auto"', async () => {
    const t = await uploadFile(server, key, speech);
    const pending = await server.api(key, 'GET', `/api/v1/transcriptions/${t.transcription_id}`);
    expect(pending.json.language).toEqual([]);
    const { record, document } = await transcribe(server, key, t.transcription_id);
    expect(document.language).toMatch(/^[a-z]{2,3}$/);
    expect(document.language).not.toBe('auto');
    expect(record.language).toEqual([document.language]);
  });

  it('keeps a requested language', async () => {
    const t = await uploadFile(server, key, speech, { language: 'ja' });
    const { record, document } = await transcribe(server, key, t.transcription_id);
    expect(record.language).toEqual(['ja']);
    expect(document.language).toBe('ja');
  });

  it('does not guess a language when there was nothing to detect it from', async () => {
    const silence = path.join(scratch, 'silence.wav');
    await run('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '3',
      silence,
    ]);
    const t = await uploadFile(server, key, silence);
    const { record, document } = await transcribe(server, key, t.transcription_id);
    expect(document.segments).toEqual([]);
    expect(document.language).toBe('und');
    expect(record.language).toEqual([]);
  });
});

describe('languages with an English-only whisper model', () => {
  it('refuses Japanese by name and says what to do', async () => {
    const model = await randomWhisperModel({ multilingual: false });
    const server = await startTestServer({
      runtime: {
        engines: engineRegistryFromEnv({
          KIKITORI_ENGINE_DEFAULT: 'whisper',
          KIKITORI_WHISPER_MODEL: model,
          KIKITORI_WHISPER_THREADS: '1',
        }),
      },
    });
    try {
      const key = await server.key('acme');
      const response = await ticket(server, key, { filename: 'a.wav', language: 'ja' });
      expect(response.status).toBe(400);
      expect(response.json.error_message).toBe(
        'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
      );
      // Without a language the model detects (between English and nothing else): left to detection.
      expect((await ticket(server, key, { filename: 'a.wav' })).json.language).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
