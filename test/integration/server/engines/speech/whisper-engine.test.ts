// whisper.cpp through smart-whisper with a tiny random-weight model (test/support/ggml-model.ts): the
// model recognizes nothing, so these tests check loading, windowing, timestamps and the pipeline's
// structure, never words.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { inspectWhisperModel } from '../../../../../src-server/engines/speech/ggml-file.js';
import type { RecognizeResult } from '../../../../../src-server/engines/speech/speech-engine.js';
import { findRepetition } from '../../../../../src-server/engines/speech/repetition-guard.js';
import { WhisperEngine } from '../../../../../src-server/engines/speech/whisper-engine.js';
import type { TranscriptDocument } from '../../../../../src-shared/transcript-document.js';
import { audioDuration, concatWithSilence, pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../../../support/ggml-model.js';
import { realtimeClient, transcriptionUpdate } from '../../../../support/realtime-client.js';
import {
  engineRegistryFromEnv,
  startTestServer,
  tempDir,
  uploadFile,
  waitForStatus,
} from '../../../../support/test-server.js';

let model: string;
let sentence: string;
let scratch: string;

beforeAll(async () => {
  model = await randomWhisperModel();
  sentence = await synthesizeSpeech('Please call Stella and ask her to bring these things with her from the store.');
  scratch = tempDir();
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const recognize = (
  engine: WhisperEngine,
  pcmPath: string,
  extra: Partial<Parameters<WhisperEngine['recognize']>[0]> = {},
) => engine.recognize({ pcmPath, language: 'en', vocabulary: [], signal: new AbortController().signal, ...extra });

function expectOrderedWithin(result: RecognizeResult, duration: number) {
  expect(result.segments.length).toBeGreaterThan(0);
  let last = 0;
  for (const s of result.segments) {
    expect(s.start).toBeGreaterThanOrEqual(last);
    expect(s.words.length).toBeGreaterThan(0);
    for (const w of s.words) {
      expect(w.word.trim()).toBe(w.word);
      expect(w.start).toBeGreaterThanOrEqual(Math.max(last, s.start));
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(s.end);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
      last = w.end;
    }
    expect(s.end).toBeLessThanOrEqual(duration);
    last = s.end;
  }
}

describe('WhisperEngine', () => {
  it('checks a model file as whisper.cpp reads it', () => {
    const info = inspectWhisperModel(model);
    expect(info).toMatchObject({ multilingual: true, eotToken: 50257, tensorCount: 11 + 15 * 2 + 24 * 1 });
    expect(info.tokenBytes(256 + 17)?.toString()).toMatch(/^ ?[a-z]+$/);

    const truncated = path.join(scratch, 'truncated.bin');
    fs.writeFileSync(truncated, fs.readFileSync(model).subarray(0, fs.statSync(model).size - 1000));
    expect(() => inspectWhisperModel(truncated)).toThrow(/ends early|missing/);
    const foreign = path.join(scratch, 'foreign.bin');
    fs.writeFileSync(foreign, 'GGUF not a whisper ggml file at all');
    expect(() => inspectWhisperModel(foreign)).toThrow(EngineError);
    expect(() => inspectWhisperModel(foreign)).toThrow(
      expect.objectContaining({
        kind: 'unavailable',
        detail: expect.stringMatching(/foreign\.bin .*wrong magic number/),
      }),
    );
  });

  it('feeds whisper only speech: a 28 s silence never reaches it, and times map back to the file', async () => {
    const second = await synthesizeSpeech('Rice is often served in round bowls.');
    const wav = await concatWithSilence([sentence, second], 28);
    const duration = await audioDuration(wav);
    const firstEnd = await audioDuration(sentence);
    const engine = new WhisperEngine({ model, dataDir: scratch, threads: 1 });
    const progress: number[] = [];
    const started = Date.now();
    const result = await recognize(engine, await pcmOf(wav), {
      vocabulary: [{ word: 'Stella' }, { word: 'Kikitori' }],
      onProgress: (f) => progress.push(f),
    });
    console.log(
      `whisper, random model: ${duration.toFixed(1)} s of audio in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    expectOrderedWithin(result, duration);
    expect(result.model).toMatch(/^whisper\.cpp\/random-/);
    // Speaking duration is the detected speech: both sentences, not the silence.
    expect(result.speakingDuration).toBeGreaterThan(3);
    expect(result.speakingDuration).toBeLessThan(duration - 25);
    // No word inside the silence (its middle 26 s): the speech was joined into one window and mapped back.
    for (const w of result.segments.flatMap((s) => s.words)) {
      expect(w.end <= firstEnd + 1 || w.start >= firstEnd + 27).toBe(true);
    }
    expect(result.timings).toMatchObject({ vad: expect.any(Number), whisper: expect.any(Number) });
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(1);
    await engine.close();
  });

  it('gives an empty transcript for silence or noise without running whisper', async () => {
    const engine = new WhisperEngine({ model, dataDir: scratch, threads: 1 });
    for (const effect of [[], ['whitenoise', 'vol', '0.05'], ['brownnoise', 'vol', '0.3']]) {
      const wav = path.join(scratch, `quiet-${effect.join('-') || 'silence'}.wav`);
      execFileSync('sox', [
        '-n',
        '-r',
        '16000',
        '-c',
        '1',
        '-b',
        '16',
        wav,
        'synth',
        '6',
        ...(effect.length ? effect : ['sine', '0', 'vol', '0']),
      ]);
      const result = await recognize(engine, await pcmOf(wav));
      expect(result.segments, effect.join(' ') || 'silence').toEqual([]);
      expect(result.speakingDuration).toBe(0);
      // The model was never loaded, let alone run.
      expect(result.timings).not.toHaveProperty('load');
      expect(result.timings).not.toHaveProperty('whisper');
    }
    await engine.close();
  });

  it('decodes a looping window again at higher temperatures, and cuts a loop that survives them to one copy', async () => {
    // No positional signal in the decoder: the next token depends on the previous ones only, and it loops.
    const looping = new WhisperEngine({
      model: await randomWhisperModel({ decoderPositionScale: 0, textCtx: 128 }),
      dataDir: scratch,
      threads: 1,
    });
    const result = await recognize(looping, await pcmOf(sentence));
    expect(result.timings?.fallbacks).toBe(1);
    const words = result.segments.flatMap((s) => s.words.map((w) => w.word));
    expect(words.length).toBeGreaterThan(0);
    expect(findRepetition(words)).toBeNull();
    expect(findRepetition([...words.join('')])).toBeNull();
    expectOrderedWithin(result, await audioDuration(sentence));
    await looping.close();
  });

  it('stops between speech windows when cancelled', async () => {
    const wav = await concatWithSilence([sentence, sentence, sentence], 2);
    // Windows of 2 s of speech: several whisper calls, with a cancel check before each.
    const engine = new WhisperEngine({ model, dataDir: scratch, threads: 1, windowSeconds: 2 });
    const controller = new AbortController();
    const reason = new Error('cancelled by test');
    const seen: number[] = [];
    const run = recognize(engine, await pcmOf(wav), {
      signal: controller.signal,
      onProgress: (f) => {
        seen.push(f);
        if (f > 0.2) controller.abort(reason);
      },
    });
    await expect(run).rejects.toBe(reason);
    expect(seen.at(-1)).toBeLessThan(1);
    await engine.close();
  });

  it('runs the pipeline: upload -> COMPLETED with transcription_model "default" mapped to whisper', async () => {
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
      const ticket = await uploadFile(server, key, sentence, { language: 'ja' });
      await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
      const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
      expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
      const document = (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
      expect(document.engine).toMatchObject({ name: 'whisper', transcription_model: 'default' });
      expect(document.engine.model).toMatch(/^whisper\.cpp\/random-/);
      expect(document.language).toBe('ja');
      expectOrderedWithin({ segments: document.segments, speakingDuration: 0, model: '' }, document.duration);

      // Without a language, whisper detects it, and the record takes the detected one.
      const auto = await uploadFile(server, key, sentence);
      expect((await server.api(key, 'GET', `/api/v1/transcriptions/${auto.transcription_id}`)).json.language).toEqual(
        [],
      );
      await server.api(key, 'POST', `/api/v1/transcriptions/${auto.transcription_id}/transcribe`);
      const detected = await waitForStatus(server, key, auto.transcription_id, ['COMPLETED', 'FAILED']);
      expect(detected.json.status, detected.json.failure_reason).toBe('COMPLETED');
      const autoDocument = (await (await fetch(detected.json.transcription_path)).json()) as TranscriptDocument;
      expect(autoDocument.language).toMatch(/^[a-z]{2,3}$/);
      expect(detected.json.language).toEqual([autoDocument.language]);
    } finally {
      await server.close();
    }
  });

  it('runs the translate task with a multilingual model: ordered words within the audio', async () => {
    const engine = new WhisperEngine({ model, dataDir: scratch, threads: 1 });
    expect(engine.capabilities.translatesToEnglish).toBe(true);
    const result = await recognize(engine, await pcmOf(sentence), { language: 'auto', task: 'translate' });
    expectOrderedWithin(result, await audioDuration(sentence));
    await engine.close();
  });

  it('without a configured model, passes over an installed model that does not load to the next one', async () => {
    const dataDir = path.join(scratch, 'damaged-preferred');
    const models = path.join(dataDir, 'models');
    fs.mkdirSync(models, { recursive: true });
    // large-v3 ranks above tiny; a damaged copy of it must not stop the engine.
    fs.writeFileSync(path.join(models, 'ggml-large-v3.bin'), 'a copy that broke off after 32 bytes');
    const engine = new WhisperEngine({ dataDir, threads: 1 });
    // Only the damaged one: it is named, and the reason says why it cannot run.
    expect(engine.resolveModel().name).toBe('large-v3');
    expect(await engine.checkUsable()).toMatchObject({
      usable: false,
      reason: expect.stringMatching(/cannot be used/),
    });

    fs.copyFileSync(model, path.join(models, 'ggml-tiny.bin'));
    expect(engine.resolveModel()).toEqual({ name: 'tiny', file: path.join(models, 'ggml-tiny.bin') });
    expect(await engine.checkUsable()).toMatchObject({ usable: true });
    const result = await recognize(engine, await pcmOf(sentence));
    expect(result.model).toBe('whisper.cpp/tiny');
    await engine.close();
  });

  it('says how to get a model, and refuses what the model cannot do', async () => {
    const pcm = await pcmOf(sentence);
    const none = new WhisperEngine({ dataDir: scratch });
    await expect(recognize(none, pcm)).rejects.toThrow(EngineError);
    await expect(recognize(none, pcm)).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(recognize(none, pcm)).rejects.toThrow(
      /^Speech recognition with a downloaded model is not set up on this server\..*models download base/,
    );
    // The engine and the operator's instructions are in the detail (logged), not in the user's message.
    await expect(recognize(none, pcm)).rejects.toMatchObject({
      detail: expect.stringMatching(/^whisper: No whisper model is installed.*models download base/) as unknown,
    });
    await expect(recognize(none, pcm)).rejects.not.toThrow(/whisper/i);
    expect((await none.checkUsable()).reason).toMatch(/models download/);
    expect(none.capabilities.languages).toContain('ja');

    const englishOnly = new WhisperEngine({
      model: await randomWhisperModel({ multilingual: false }),
      dataDir: scratch,
      threads: 1,
    });
    expect(englishOnly.capabilities.languages).toEqual(['en']);
    await expect(recognize(englishOnly, pcm, { language: 'ja' })).rejects.toMatchObject({
      kind: 'unsupported',
      field: 'language',
    });
    await expect(recognize(englishOnly, pcm, { language: 'ja' })).rejects.toThrow(
      /^Japanese needs a speech model that knows Japanese/,
    );
    await expect(recognize(englishOnly, pcm, { language: 'xx' })).rejects.toMatchObject({
      kind: 'unsupported',
      field: 'language',
      message: expect.stringMatching(/^xx cannot be transcribed here/),
    });
    expect(englishOnly.capabilities.translatesToEnglish).toBe(false);
    await expect(recognize(englishOnly, pcm, { language: 'auto', task: 'translate' })).rejects.toMatchObject({
      kind: 'unsupported',
      field: 'model',
    });

    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    await expect(recognize(englishOnly, pcm, { signal: aborted.signal })).rejects.toThrow('stop');
    await englishOnly.close();
  });
});

describe('whisper live (decision 0063): the utterance decoded again as it grows', () => {
  it('lists no live languages without a model; with one, streams an utterance to final words timed in the session', async () => {
    expect(new WhisperEngine({ dataDir: tempDir() }).liveLanguages).toEqual([]);
    const engine = new WhisperEngine({ model, dataDir: scratch, threads: 1 });
    expect(engine.liveLanguages).toContain('ja');
    expect(engine.liveModel).toMatch(/^whisper\.cpp\/random-/);
    await expect(engine.openStream({ language: 'xx', vocabulary: [] })).rejects.toMatchObject({
      kind: 'unsupported',
    });
    const pcm = fs.readFileSync(await pcmOf(sentence));
    const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
    const stream = await engine.openStream({ language: 'ja', vocabulary: [{ word: 'Stella', reading: null }] });
    stream.startUtterance(3);
    for (let at = 0; at < samples.length; at += 8000) await stream.feed(samples.subarray(at, at + 8000));
    const words = await stream.endUtterance();
    expect(words.length).toBeGreaterThan(0);
    const duration = samples.length / 16000;
    let last = 3;
    for (const w of words) {
      expect(w.start).toBeGreaterThanOrEqual(last);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.end).toBeLessThanOrEqual(3 + duration);
      last = w.start;
    }
    // Partial words are the ones two passes agreed on: a prefix of some pass, here none after the end.
    expect(stream.partial()).toEqual([]);
    await stream.close();
    await engine.close();
  });

  it('serves /v1/realtime with the engine a batch transcription would use: whisper for Japanese, refused without a model', async () => {
    const withModel = await startTestServer({
      runtime: {
        engines: engineRegistryFromEnv({
          KIKITORI_ENGINE_DEFAULT: 'whisper',
          KIKITORI_WHISPER_MODEL: model,
          KIKITORI_WHISPER_THREADS: '1',
        }),
      },
    });
    const withoutModel = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
    try {
      const pcm = fs.readFileSync(await pcmOf(sentence));
      const live = async (server: typeof withModel, language: string) => {
        const client = realtimeClient(server.url, { 'x-api-key': await server.key('acme') });
        await client.inbox.ofType('session.created');
        client.send(transcriptionUpdate({ language, turnDetection: null }));
        return { ...client, events: client.inbox.events, next: (type: string) => client.inbox.ofType(type) };
      };

      const ja = await live(withModel, 'ja');
      const updated = await ja.next('session.updated');
      expect(updated.session.audio.input.transcription).toMatchObject({
        language: 'ja',
        model: expect.stringMatching(/^whisper\.cpp\/random-/),
      });
      ja.send({ type: 'input_audio_buffer.append', audio: pcm.toString('base64') });
      ja.send({ type: 'input_audio_buffer.commit' });
      const completed = await ja.next('conversation.item.input_audio_transcription.completed');
      expect(completed.words.length).toBeGreaterThan(0);
      for (const w of completed.words) expect(w.end).toBeLessThanOrEqual(pcm.length / 2 / 16000 + 0.01);
      expect(ja.events.some((e) => e.type === 'conversation.item.input_audio_transcription.failed')).toBe(false);
      ja.socket.close();

      // Pocketsphinx serves English only, and whisper has no model there: Japanese is refused, by name.
      const refused = await live(withoutModel, 'ja');
      const error = await refused.next('error');
      expect(error.error).toMatchObject({
        code: 'unsupported_language',
        message: expect.stringMatching(/recognizes en;/),
      });
      refused.socket.close();
    } finally {
      await withModel.close();
      await withoutModel.close();
    }
  });
});
