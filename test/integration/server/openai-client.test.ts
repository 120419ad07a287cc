// The /v1/ operations through the official `openai` npm client, against a real listening server:
// pocketsphinx as the default engine (recognizes synthesized English), and whisper.cpp with a tiny
// random-weight multilingual model (test/support/ggml-model.ts) for translations: it recognizes
// nothing, so translations are checked for shape, never words.
import fs from 'node:fs';
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import { startOpenAiTestServer } from '../../support/openai-test-server.js';
import type { TestServer } from '../../support/test-server.js';

let server: TestServer;
let client: OpenAI;
let speech: string;

beforeAll(async () => {
  const model = await randomWhisperModel();
  // whisper-1 (the default engine) is pocketsphinx here, beside a whisper engine with a random model: pinned,
  // since engine `auto` would pick whisper once a model is configured.
  server = await startOpenAiTestServer({
    env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx', KIKITORI_WHISPER_MODEL: model, KIKITORI_WHISPER_THREADS: '1' },
  });
  client = new OpenAI({ apiKey: await server.key('acme'), baseURL: `${server.url}/v1`, maxRetries: 0 });
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => server.close());

const audio = () => fs.createReadStream(speech);

/** The error the client raised, for assertions on its class and fields. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('the official openai client against /v1/', () => {
  it('transcribes as json, text, verbose_json and srt', async () => {
    const json = await client.audio.transcriptions.create({ file: audio(), model: 'whisper-1' });
    expect(json.text).toMatch(/budget/);

    const text = await client.audio.transcriptions.create({
      file: audio(),
      model: 'whisper-1',
      response_format: 'text',
    });
    expect(text).toMatch(/budget.*\n$/);

    const verbose = await client.audio.transcriptions.create({
      file: audio(),
      model: 'pocketsphinx',
      language: 'en',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(verbose).toMatchObject({ task: 'transcribe', language: 'english' });
    expect(verbose.duration).toBeGreaterThan(1);
    expect(verbose.words?.map((w) => w.word)).toContain('budget');
    expect(verbose.segments?.length).toBeGreaterThan(0);

    const srt = await client.audio.transcriptions.create({ file: audio(), model: 'whisper-1', response_format: 'srt' });
    expect(srt).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\r?\n.*budget/);
  });

  it('raises AuthenticationError with the message for a bad key, and the error_id is in the log', async () => {
    const stranger = new OpenAI({ apiKey: 'kk_wrong', baseURL: `${server.url}/v1`, maxRetries: 0 });
    const error = await failure(stranger.audio.transcriptions.create({ file: audio(), model: 'whisper-1' }));
    expect(error).toBeInstanceOf(AuthenticationError);
    const auth = error as AuthenticationError;
    expect(auth.status).toBe(401);
    expect(auth.message).toMatch(/^401 The API key is not valid/);
    expect(auth).toMatchObject({ type: 'authentication_error', code: 'invalid_api_key', param: null });
    const errorId = (auth.error as { error_id: string }).error_id;
    expect(server.logLines.some((line) => line.includes(errorId))).toBe(true);

    const models = await failure(stranger.models.list());
    expect(models).toBeInstanceOf(AuthenticationError);
  });

  it('raises BadRequestError naming the param for a bad model or response_format', async () => {
    const model = await failure(client.audio.transcriptions.create({ file: audio(), model: 'gpt-9-ultra' }));
    expect(model).toBeInstanceOf(BadRequestError);
    expect(model).toMatchObject({
      status: 400,
      param: 'model',
      type: 'invalid_request_error',
      code: 'validation_failed',
    });
    expect((model as BadRequestError).message).toMatch(/model "gpt-9-ultra" is not available.*whisper-1/);

    const format = await failure(
      client.audio.transcriptions.create({ file: audio(), model: 'whisper-1', response_format: 'xml' as 'json' }),
    );
    expect(format).toBeInstanceOf(BadRequestError);
    expect(format).toMatchObject({ param: 'response_format', code: 'validation_failed' });

    const language = await failure(
      client.audio.transcriptions.create({ file: audio(), model: 'pocketsphinx', language: 'ja' }),
    );
    expect(language).toMatchObject({ status: 400, param: 'language', code: 'unsupported_language' });
  });

  it('raises BadRequestError naming the file for audio it cannot read (400, as OpenAI; issue 22)', async () => {
    const garbage = new File(
      [new TextEncoder().encode('this is not audio at all, just text in a .mp3 file\n'.repeat(50))],
      'notes.mp3',
      { type: 'audio/mpeg' },
    );
    const error = await failure(client.audio.transcriptions.create({ file: garbage, model: 'whisper-1' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, type: 'invalid_request_error', param: 'file' });
    expect((error as BadRequestError).message).toMatch(/^400 /);

    const translation = await failure(client.audio.translations.create({ file: garbage, model: 'whisper' }));
    expect(translation).toBeInstanceOf(BadRequestError);
    expect(translation).toMatchObject({ status: 400, param: 'file' });
  });

  it('answers unknown /v1/ routes with NotFoundError', async () => {
    const error = await failure(client.get('/no-such-operation'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, type: 'invalid_request_error', code: 'route_not_found' });
  });

  it('lists the models served', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) {
      expect(model).toMatchObject({ object: 'model', owned_by: 'kikitori-server' });
      expect(Number.isInteger(model.created)).toBe(true);
      ids.push(model.id);
    }
    expect(ids).toEqual(['whisper-1', 'diarization-high', 'pocketsphinx', 'whisper']);
  });

  it('translates with whisper, in each response format', async () => {
    const json = await client.audio.translations.create({ file: audio(), model: 'whisper' });
    expect(Object.keys(json)).toEqual(['text']);
    expect(typeof json.text).toBe('string');

    // The client's overloads type every translation as Translation; verbose_json answers TranslationVerbose.
    const verbose = (await client.audio.translations.create({
      file: audio(),
      model: 'whisper',
      response_format: 'verbose_json',
    })) as unknown as OpenAI.Audio.TranslationVerbose;
    expect(verbose).toMatchObject({ task: 'translate', language: 'english', engine: { name: 'whisper' } });
    expect(verbose.duration).toBeGreaterThan(1);
    expect(verbose.text).toBe(verbose.segments?.map((segment) => segment.text).join(' '));

    const text = await client.audio.translations.create({ file: audio(), model: 'whisper', response_format: 'text' });
    expect(text).toMatch(/\n$/);
  });

  it('refuses a translation by an engine that cannot translate, naming the one that can', async () => {
    const error = await failure(client.audio.translations.create({ file: audio(), model: 'whisper-1' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ param: 'model', code: 'unsupported_option', type: 'invalid_request_error' });
    expect((error as BadRequestError).message).toMatch(/"pocketsphinx", which cannot translate.*model "whisper"/);

    const language = await failure(
      client.audio.translations.create({
        file: audio(),
        model: 'whisper',
        language: 'de',
      } as OpenAI.Audio.TranslationCreateParams),
    );
    expect(language).toMatchObject({ status: 400, param: 'language', code: 'validation_failed' });
  });

  it('documents the /v1/ operations and their error body in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { required: string[] }> };
    };
    expect(Object.keys(doc.paths['/v1/audio/translations']!)).toEqual(['post']);
    expect(Object.keys(doc.paths['/v1/models']!)).toEqual(['get']);
    expect(JSON.stringify(doc.paths['/v1/audio/transcriptions']!.post!.responses['400'])).toContain('OpenAiErrorBody');
    expect(doc.components.schemas.OpenAiErrorBody!.required).toEqual(['error']);
  });
});
