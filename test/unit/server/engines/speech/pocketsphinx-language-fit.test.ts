// The built-in recognizer's language score (decision 0070): words that back off to unigrams, are short
// and uncertain push it up; too few words give no verdict.
import { describe, expect, it } from 'vitest';
import {
  countWord,
  emptyLanguageFit,
  isLanguageMismatch,
  LANGUAGE_FIT_MODEL,
  mismatchScore,
} from '../../../../../src-server/engines/speech/pocketsphinx-language-fit.js';

function counts(words: Array<[string, number, number]>) {
  const c = emptyLanguageFit();
  for (const [word, confidence, backoff] of words) countWord(c, word, confidence, backoff);
  return c;
}

// English as the recognizer hears it: mostly bigram/trigram hits at good confidence.
const english = counts(
  'we will meet at the office after lunch to review the budget please remember to lock the door'
    .split(' ')
    .map((w, i) => [w, 0.8, i === 0 ? 1 : 3] as [string, number, number]),
);
// Spanish forced into English words: short words, unigram backoffs, low confidence.
const gibberish = counts(
  'also eagles in off the the ah the swiss the links on the saudi the whistle book on what'
    .split(' ')
    .map((w, i) => [w, 0.2, i % 4 === 0 ? 2 : 1] as [string, number, number]),
);

describe('language fit', () => {
  it('counts what each word says', () => {
    expect(
      counts([
        ['the', 0.9, 3],
        ['budget', 0.3, 1],
        ['op', 0.1, 2],
      ]),
    ).toEqual({
      words: 3,
      unigram: 1,
      trigram: 1,
      lowConfidence: 2,
      confidence: 1.3,
      short: 2,
    });
  });

  it('scores gibberish above English and flags it, not English', () => {
    expect(mismatchScore(gibberish)).toBeGreaterThan(mismatchScore(english));
    expect(isLanguageMismatch(gibberish)).toBe(true);
    expect(isLanguageMismatch(english)).toBe(false);
  });

  it('gives no verdict on too few words', () => {
    const few = counts([['the', 0.1, 1]]);
    expect(few.words).toBeLessThan(LANGUAGE_FIT_MODEL.minWords);
    expect(isLanguageMismatch(few)).toBeNull();
  });
});
