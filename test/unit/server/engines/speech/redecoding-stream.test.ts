// The live stream for window recognizers (whisper): passes over the growing utterance, words shown once two
// passes in a row agree on them, a final decode for the utterance's words. The decoder is scripted here:
// these tests are about the policy, not about recognition (whisper-engine.test.ts runs the real one).
import { describe, expect, it } from 'vitest';
import type { RecognizedWord } from '../../../../../src-server/engines/speech/speech-engine.js';
import {
  agreedPrefix,
  RedecodingStream,
  type WindowDecoder,
} from '../../../../../src-server/engines/speech/redecoding-stream.js';

const second = new Int16Array(16000);
const words = (text: string): RecognizedWord[] =>
  text
    .split(' ')
    .filter(Boolean)
    .map((word, i) => ({ word, start: i * 0.5, end: i * 0.5 + 0.4, confidence: 0.9 }));

/** A decoder that answers each pass with the next scripted hypothesis, when the test lets it. */
function scripted(passes: string[], final: string) {
  const seen: number[] = [];
  const pending: (() => void)[] = [];
  let released = 0;
  const decoder: WindowDecoder = {
    decode: (pcm) => {
      seen.push(pcm.length);
      const text = passes[seen.length - 1] ?? passes[passes.length - 1]!;
      return new Promise((resolve) => pending.push(() => resolve(words(text))));
    },
    decodeFinal: async (pcm) => {
      seen.push(pcm.length);
      return words(final);
    },
    release: () => void released++,
  };
  const settle = async () => {
    for (const resolve of pending.splice(0)) resolve();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { decoder, seen, settle, released: () => released };
}

describe('agreedPrefix', () => {
  it('counts leading words that agree, case and punctuation aside', () => {
    expect(agreedPrefix(['The', 'budget,'], ['the', 'budget', 'meeting'])).toBe(2);
    expect(agreedPrefix(['move', 'it'], ['moved', 'it'])).toBe(0);
    expect(agreedPrefix([], ['a'])).toBe(0);
    expect(agreedPrefix(['予算', '会議'], ['予算', '会議。'])).toBe(2);
  });
});

describe('RedecodingStream', () => {
  it('shows words only once two passes agree, never takes them back, and ends with the final decode, timed in the session', async () => {
    const { decoder, seen, settle } = scripted(
      ['the budge', 'the budget meeting', 'the budget meeting moved', 'a budget meeting moved to'],
      'The budget meeting moved to Friday.',
    );
    const stream = new RedecodingStream(decoder, { stepSeconds: 1 });
    stream.startUtterance(12);
    await stream.feed(second.subarray(0, 8000));
    expect(seen).toEqual([]); // less than a step of audio: no pass yet
    await stream.feed(second.subarray(0, 8000));
    expect(seen).toEqual([16000]);
    // A pass in flight: more audio does not start another one.
    await stream.feed(second);
    expect(seen).toEqual([16000]);
    await settle();
    expect(stream.partial()).toEqual([]); // one pass: nothing agreed yet
    await stream.feed(second);
    expect(seen).toEqual([16000, 48000]); // the whole utterance so far, again
    await settle();
    expect(stream.partial()).toEqual(['the']); // "budge" and "budget" disagree
    await stream.feed(second);
    await settle();
    expect(stream.partial()).toEqual(['the', 'budget', 'meeting']);
    await stream.feed(second);
    await settle();
    // The fourth pass revises "the": what was shown stays.
    expect(stream.partial()).toEqual(['the', 'budget', 'meeting']);
    const final = await stream.endUtterance();
    expect(final.map((w) => w.word)).toEqual(['The', 'budget', 'meeting', 'moved', 'to', 'Friday.']);
    expect(final[0]).toMatchObject({ start: 12, end: 12.4 });
    expect(seen.at(-1)).toBe(80000);
    expect(stream.partial()).toEqual([]);
  });

  it('starts each utterance afresh, and gives the decoder back once on close, after a pass in flight', async () => {
    const { decoder, seen, settle, released } = scripted(['one two'], 'one two');
    const stream = new RedecodingStream(decoder, { stepSeconds: 1 });
    stream.startUtterance(0);
    await stream.feed(second);
    await settle();
    await stream.feed(second);
    await settle();
    expect(stream.partial()).toEqual(['one', 'two']);
    await stream.endUtterance();
    stream.startUtterance(5);
    expect(stream.partial()).toEqual([]);
    await stream.feed(second);
    expect(seen.at(-1)).toBe(16000);
    const closing = stream.close();
    await settle();
    await closing;
    await stream.close();
    expect(released()).toBe(1);
    expect(() => stream.startUtterance(9)).toThrow(/closed/);
  });

  it('reports a failed pass and keeps going: the final decode decides', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const stream = new RedecodingStream(
      {
        decode: async () => {
          calls++;
          throw new Error('native failure');
        },
        decodeFinal: async () => words('still here'),
        release: () => {},
      },
      { stepSeconds: 1, onPassError: (error) => errors.push(error) },
    );
    stream.startUtterance(0);
    await stream.feed(second);
    await new Promise((resolve) => setImmediate(resolve));
    await stream.feed(second);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(2);
    expect(errors).toHaveLength(2);
    expect((await stream.endUtterance()).map((w) => w.word)).toEqual(['still', 'here']);
  });
});
