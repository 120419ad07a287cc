import { describe, expect, it } from 'vitest';
import {
  isUncertain,
  nextUncertainWord,
  UNCERTAIN_BELOW,
  uncertainWords,
} from '../../../src-shared/word-confidence.js';

const word = (start: number, confidence: number | null) => ({ start, confidence });
// Uncertain: 1.0 (segment 0), 5.5 and 6.0 (segment 1), 12.0 (segment 3).
const segments = [
  { words: [word(0, 0.9), word(1, 0.2), word(2, 0.7)] },
  { words: [word(5, 0.99), word(5.5, 0.49), word(6, 0.1), word(7, null)] },
  { words: [] },
  { words: [word(10, 0.5), word(12, 0.3)] },
];

describe('uncertain words', () => {
  it('are those more likely wrong than right: confidence below one half, never a word without one', () => {
    expect(UNCERTAIN_BELOW).toBe(0.5);
    expect(isUncertain({ confidence: 0.49 })).toBe(true);
    expect(isUncertain({ confidence: 0.5 })).toBe(false);
    // Pocketsphinx's raw posteriors put most right words below 0.85, which the app used to underline.
    expect(isUncertain({ confidence: 0.8 })).toBe(false);
    expect(isUncertain({ confidence: null })).toBe(false);
    expect(uncertainWords(segments).map((u) => u.start)).toEqual([1, 5.5, 6, 12]);
  });

  it('are visited in reading order from the playback position, across segments, then from the first again', () => {
    const visit = (time: number) => {
      const next = nextUncertainWord(segments, time);
      return next && [next.segmentIndex, next.wordIndex, next.ordinal, next.total];
    };
    expect(visit(0)).toEqual([0, 1, 1, 4]);
    // On an uncertain word (where the last jump left playback), the next one.
    expect(visit(1)).toEqual([1, 1, 2, 4]);
    expect(visit(5.5)).toEqual([1, 2, 3, 4]);
    expect(visit(6)).toEqual([3, 1, 4, 4]);
    expect(visit(8.4)).toEqual([3, 1, 4, 4]);
    // After the last: the first again.
    expect(visit(12)).toEqual([0, 1, 1, 4]);
    expect(visit(99)).toEqual([0, 1, 1, 4]);
  });

  it('are none in a transcript whose words are all likely right or carry no confidence', () => {
    expect(nextUncertainWord([{ words: [word(0, 0.9), word(1, null)] }], 0)).toBeNull();
    expect(nextUncertainWord([], 0)).toBeNull();
  });
});
