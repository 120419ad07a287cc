import { describe, expect, it } from 'vitest';
import {
  applySpotting,
  doubtfulStretches,
  type Detection,
  type SpottingTerm,
} from '../../../../../src-server/engines/speech/pocketsphinx-spotting.js';
import type { RecognizedWord } from '../../../../../src-server/engines/speech/speech-engine.js';

const w = (word: string, start: number, end: number, confidence: number | null): RecognizedWord => ({
  word,
  start,
  end,
  confidence,
});
const terms = new Map<string, SpottingTerm>(
  [
    { keys: ['sorvik'], phones: 6 },
    { keys: ['astrivon'], phones: 8 },
    { keys: ['ostrevan'], phones: 8 },
    { keys: ['tremaine', 'ovosky'], phones: 11 },
  ].map((t) => [t.keys.join(' '), t]),
);
const options = { maxConfidence: 0.6, minScorePerPhone: -300 };
const text = (words: readonly RecognizedWord[]) => words.map((x) => x.word).join(' ');

describe('keyword spotting: rewriting the first pass', () => {
  // "Sorvik will join the call" came out "or the wheel to that": the n-gram pass lost the name in short words.
  it('rewrites the doubtful words a well-scored detection covers, timed over both', () => {
    const words = [
      w('or', 0.08, 0.24, 0.2),
      w('the', 0.25, 0.36, 0.3),
      w('wheel', 0.42, 0.61, 0.5),
      w('to', 0.62, 0.9, 0.4),
    ];
    const detections: Detection[] = [{ phrase: 'sorvik', start: 0.04, end: 0.38, score: -6 * 200 }];
    const out = applySpotting(words, detections, terms, options);
    expect(text(out)).toBe('sorvik wheel to');
    expect(out[0]).toEqual({ word: 'sorvik', start: 0.04, end: 0.38, confidence: 0.2 });
  });

  it('keeps words the first pass was sure of, and detections scoring too low for their length', () => {
    const words = [w('or', 0.08, 0.24, 0.2), w('the', 0.25, 0.36, 0.9)];
    expect(
      text(applySpotting(words, [{ phrase: 'sorvik', start: 0.04, end: 0.38, score: -600 }], terms, options)),
    ).toBe('or the');
    const doubtful = [w('or', 0.08, 0.24, 0.2), w('the', 0.25, 0.36, 0.3)];
    // -301 per phone: just below the threshold.
    expect(
      text(applySpotting(doubtful, [{ phrase: 'sorvik', start: 0.04, end: 0.38, score: -6 * 301 }], terms, options)),
    ).toBe('or the');
    // A word without a confidence is not judged doubtful, and an unknown phrase is ignored.
    expect(
      text(
        applySpotting(
          [w('or', 0.08, 0.36, null)],
          [{ phrase: 'sorvik', start: 0, end: 0.4, score: 0 }],
          terms,
          options,
        ),
      ),
    ).toBe('or');
    expect(text(applySpotting(doubtful, [{ phrase: 'zintrix', start: 0, end: 0.4, score: 0 }], terms, options))).toBe(
      'or the',
    );
  });

  it('of two similar terms spotted in one place, takes the better score per phone', () => {
    const words = [w('la', 0.46, 0.59, 0.1), w('three', 0.6, 0.84, 0.2), w('month', 0.85, 1.15, 0.3)];
    const detections: Detection[] = [
      { phrase: 'astrivon', start: 0.45, end: 0.86, score: -8 * 250 },
      { phrase: 'ostrevan', start: 0.44, end: 0.85, score: -8 * 120 },
    ];
    expect(text(applySpotting(words, detections, terms, options))).toBe('ostrevan month');
  });

  // "I spoke with Tremaine Ovosky" came out "tremaine of asking": the first word right, the name split.
  it('rejoins a split two-word name, keeping none of the pieces, and writes each of its words', () => {
    const words = [
      w('with', 0.66, 0.8, 0.9),
      w('tremaine', 0.81, 1.24, 0.5),
      w('of', 1.25, 1.41, 0.2),
      w('asking', 1.42, 1.95, 0.3),
      w('about', 2.07, 2.33, 0.95),
    ];
    const out = applySpotting(
      words,
      [{ phrase: 'tremaine ovosky', start: 0.8, end: 2.0, score: -156 }],
      terms,
      options,
    );
    expect(text(out)).toBe('with tremaine ovosky about');
    expect(out[1]!.start).toBe(0.8);
    expect(out[2]!.end).toBe(2);
    expect(out[1]!.end).toBe(out[2]!.start);
  });

  it('leaves a stretch that already holds the term, and needs words under a detection to rewrite', () => {
    const words = [w('sorvik', 0.05, 0.37, 0.5), w('will', 0.4, 0.6, 0.3)];
    expect(text(applySpotting(words, [{ phrase: 'sorvik', start: 0.04, end: 0.38, score: 0 }], terms, options))).toBe(
      'sorvik will',
    );
    expect(applySpotting(words, [{ phrase: 'sorvik', start: 2, end: 2.3, score: 0 }], terms, options)).toEqual(words);
  });
});

describe('keyword spotting: where to search', () => {
  it('widens runs of doubtful words by the padding, merges those that touch, and stays in the utterance', () => {
    const words = [
      w('the', 0.1, 0.2, 0.9),
      w('or', 0.3, 0.5, 0.2),
      w('the', 0.5, 0.6, 0.3),
      w('release', 0.7, 1.2, 0.95),
      w('fixed', 1.4, 1.6, 0.1),
      w('most', 1.9, 2.1, 0.4),
      w('bugs', 3, 3.4, 0.5),
    ];
    expect(doubtfulStretches(words, { maxConfidence: 0.6, padding: 0.2 }, 0, 3.5)).toEqual([
      { start: 0.09999999999999998, end: 0.8 },
      { start: 1.2, end: 2.3000000000000003 },
      { start: 2.8, end: 3.5 },
    ]);
    expect(doubtfulStretches(words, { maxConfidence: 0.05, padding: 0.2 }, 0, 3.5)).toEqual([]);
  });
});
