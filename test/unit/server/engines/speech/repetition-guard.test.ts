import { describe, expect, it } from 'vitest';
import {
  compressionRatio,
  findRepetition,
  isLooping,
  trimRepetitions,
} from '../../../../../src-server/engines/speech/repetition-guard.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('repetition guard', () => {
  const speech = 'We will meet at the office after lunch to review the budget, and then she drove to the beach.';
  const loop = `${speech} Thank you. Thank you. Thank you. Thank you. Thank you. Thank you.`;

  it('measures the gzip compression ratio, as openai-whisper does', () => {
    expect(compressionRatio('')).toBe(0);
    expect(compressionRatio(speech)).toBeLessThan(2.4);
    expect(
      compressionRatio(
        'the the the the the the the the the the the the the the the the the the the the the the the the',
      ),
    ).toBeGreaterThan(2.4);
  });

  it('finds a phrase repeated back to back, ignoring case and punctuation, but not ordinary repeats', () => {
    expect(findRepetition(words(loop))).toEqual({ start: 19, length: 2, count: 6 });
    expect(findRepetition(words(speech))).toBeNull();
    expect(findRepetition(words('no no no, I said very very good'))).toBeNull();
    expect(isLooping(speech, words(speech))).toBe(false);
    expect(isLooping(loop, words(loop))).toBe(true);
    // Characters, for languages written without spaces.
    const japanese = 'ありがとうございます。ありがとうございます。ありがとうございます。';
    expect(findRepetition([...japanese])).toMatchObject({ start: 0, length: 11, count: 3 });
  });

  it('keeps the first copy of each loop and everything else', () => {
    const units = words(`${loop} Goodbye now.`);
    const kept = trimRepetitions(units).map((i) => units[i]);
    expect(kept.join(' ')).toBe(`${speech} Thank you. Goodbye now.`);
    expect(trimRepetitions(words(speech))).toEqual(words(speech).map((_, i) => i));
  });
});
