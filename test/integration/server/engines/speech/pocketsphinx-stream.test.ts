// The pocketsphinx live stream (streaming-recognizer.ts): audio fed in pieces gives a partial hypothesis
// while the utterance is open and timed final words when it ends; the decoder goes back to the pool.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PocketsphinxEngine } from '../../../../../src-server/engines/speech/pocketsphinx-engine.js';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';
import { tempDir } from '../../../../support/temp-dir.js';

const engine = new PocketsphinxEngine();
let samples: Int16Array;

beforeAll(async () => {
  const bytes = await fsp.readFile(
    await pcmOf(await synthesizeSpeech('I had a long meeting with my manager about the new budget.')),
  );
  samples = new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
});
afterAll(() => engine.close());

/** 100 ms pieces. */
function* pieces(all: Int16Array): Generator<Int16Array> {
  for (let at = 0; at < all.length; at += 1600) yield all.slice(at, at + 1600);
}

describe('PocketsphinxEngine.openStream', () => {
  it('gives partial words while audio arrives, then the final words timed from the utterance offset', async () => {
    const stream = await engine.openStream({ language: 'en', vocabulary: [] });
    stream.startUtterance(10);
    const partials: string[][] = [];
    for (const piece of pieces(samples)) {
      await stream.feed(piece);
      partials.push(stream.partial());
    }
    // Words were guessed before the end of the audio.
    expect(partials.slice(0, Math.floor(partials.length * 0.75)).some((p) => p.length > 0)).toBe(true);
    const words = await stream.endUtterance();
    const text = words.map((w) => w.word).join(' ');
    expect(text).toMatch(/meeting/);
    expect(text).toMatch(/manager/);
    expect(text).toMatch(/budget/);
    expect(words[0]!.start).toBeGreaterThanOrEqual(10);
    expect(words.at(-1)!.end).toBeLessThanOrEqual(10 + samples.length / 16000 + 0.01);
    expect(stream.partial()).toEqual([]);

    // A second utterance on the same stream.
    stream.startUtterance(20);
    for (const piece of pieces(samples)) await stream.feed(piece);
    const again = await stream.endUtterance();
    expect(again.map((w) => w.word)).toContain('budget');
    expect(again[0]!.start).toBeGreaterThanOrEqual(20);
    await stream.close();
    expect(engine.warmDecoders).toBeGreaterThanOrEqual(1);
  });

  it('gives the decoder back when closed in the middle of an utterance', async () => {
    const before = engine.warmDecoders;
    const stream = await engine.openStream({ language: 'en', vocabulary: [] });
    expect(engine.warmDecoders).toBe(Math.max(0, before - 1));
    stream.startUtterance(0);
    await stream.feed(samples.slice(0, samples.length / 2));
    await stream.close();
    expect(engine.warmDecoders).toBe(Math.max(1, before));
    // The decoder taken again decodes cleanly from the start.
    const next = await engine.openStream({ language: 'en', vocabulary: [] });
    next.startUtterance(0);
    for (const piece of pieces(samples)) await next.feed(piece);
    expect((await next.endUtterance()).map((w) => w.word)).toContain('budget');
    await next.close();
  });

  it('leaves batch recognition as it was: a decoder that decoded live is not given to a batch job', async () => {
    const local = new PocketsphinxEngine();
    const pcmPath = path.join(tempDir(), 'speech.pcm');
    await fsp.writeFile(pcmPath, samples);
    const recognize = () =>
      local.recognize({ pcmPath, language: 'en', vocabulary: [], signal: new AbortController().signal });
    try {
      const before = await recognize();
      const stream = await local.openStream({ language: 'en', vocabulary: [] });
      stream.startUtterance(0);
      for (const piece of pieces(samples)) await stream.feed(piece);
      await stream.endUtterance();
      await stream.close();
      // The same words, times and confidences: the whole-utterance mean normalization, not the live one.
      expect((await recognize()).segments).toEqual(before.segments);
    } finally {
      local.close();
    }
  });

  it('refuses a language it cannot recognize', async () => {
    await expect(engine.openStream({ language: 'ja', vocabulary: [] })).rejects.toBeInstanceOf(EngineError);
  });
});
