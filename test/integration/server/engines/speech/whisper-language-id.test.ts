// whisper naming the language of speech (decision 0070), with tiny random-weight models (the answer of a
// random model is some language, always the same one for the same audio; which one says nothing).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHISPER_LANGUAGES, WhisperEngine } from '../../../../../src-server/engines/speech/whisper-engine.js';
import { pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../../../support/ggml-model.js';
import { tempDir } from '../../../../support/test-server.js';

let pcm: string;
let scratch: string;
const regions = [{ start: 0.1, end: 3 }];
const signal = new AbortController().signal;

beforeAll(async () => {
  pcm = await pcmOf(await synthesizeSpeech('Please call Stella and ask her to bring these things with her.'));
  scratch = tempDir();
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('WhisperEngine.identify', () => {
  it('names a language whisper knows with a multilingual model, the same one each time', async () => {
    const engine = new WhisperEngine({ model: await randomWhisperModel(), dataDir: scratch, threads: 1 });
    try {
      const first = await engine.identify({ pcmPath: pcm, regions, signal });
      expect(WHISPER_LANGUAGES).toContain(first);
      expect(await engine.identify({ pcmPath: pcm, regions, signal })).toBe(first);
      // No speech: nothing to tell.
      expect(await engine.identify({ pcmPath: pcm, regions: [], signal })).toBeNull();
    } finally {
      await engine.close();
    }
  });

  it('cannot tell with an English-only model or without any model', async () => {
    const english = new WhisperEngine({
      model: await randomWhisperModel({ multilingual: false }),
      dataDir: scratch,
      threads: 1,
    });
    expect(await english.identify({ pcmPath: pcm, regions, signal })).toBeNull();
    const none = new WhisperEngine({ dataDir: scratch, threads: 1 });
    expect(await none.identify({ pcmPath: pcm, regions, signal })).toBeNull();
  });
});
