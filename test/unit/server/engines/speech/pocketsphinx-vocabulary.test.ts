import { describe, expect, it } from 'vitest';
import {
  isDoubtfulVocabularyWord,
  revertDoubtfulHunks,
  shortWordProbability,
  vocabularyUnigramLog10,
} from '../../../../../src-server/engines/speech/pocketsphinx-vocabulary.js';

describe('pocketsphinx vocabulary weighting', () => {
  it('makes up for the interpolation weight, which the LM set does not raise to the language weight', () => {
    // log10(1e-4) - log10(0.05) / lw: the share of 0.05 costs 1.3 decades, spread over the language weight.
    expect(vocabularyUnigramLog10(1e-4, 6.5)).toBeCloseTo(-4 + Math.log10(20) / 6.5, 6);
    expect(vocabularyUnigramLog10(1e-4, 1)).toBeCloseTo(-4 + Math.log10(20), 6);
    // Never above certainty.
    expect(vocabularyUnigramLog10(0.9, 1)).toBe(0);
  });

  it('drops only the vocabulary-only words the engine doubted', () => {
    const words = [
      { word: 'the', confidence: 0.1 },
      { word: 'sukus', confidence: 0.2 },
      { word: 'sorvik', confidence: 0.65 },
      { word: 'brush', confidence: 0.3 },
      { word: 'lezo', confidence: null },
    ];
    const keep = (only: ReadonlySet<string>, min: number) =>
      words.filter((w) => !isDoubtfulVocabularyWord(w.word, w.confidence, only, min)).map((w) => w.word);
    // English words stay whatever their posterior; a word without one is not judged.
    expect(keep(new Set(['sukus', 'sorvik', 'lezo']), 0.5)).toEqual(['the', 'sorvik', 'brush', 'lezo']);
    expect(keep(new Set(['sukus']), 0)).toEqual(words.map((w) => w.word));
  });

  it('gives a word shorter than the phones asked for fewer decades of probability per missing phone', () => {
    expect(shortWordProbability(0.6, 8, 6, 1)).toBe(0.6);
    expect(shortWordProbability(0.6, 6, 6, 1)).toBe(0.6);
    expect(shortWordProbability(0.6, 4, 6, 1)).toBeCloseTo(0.006, 10);
    expect(shortWordProbability(0.6, 5, 6, 0.5)).toBeCloseTo(0.6 / Math.sqrt(10), 10);
    // No threshold: every word keeps the probability.
    expect(shortWordProbability(0.6, 2, 0, 1)).toBe(0.6);
  });

  describe('settling doubtful vocabulary words with a decode without the vocabulary', () => {
    const words = (text: string) => text.split(' ').map((word) => ({ word }));
    const settle = (withVocabulary: string, without: string, doubtful: string[], kept: string[] = []) => {
      const heard = words(withVocabulary);
      return revertDoubtfulHunks(heard, words(without), new Set(heard.filter((w) => doubtful.includes(w.word))), (w) =>
        kept.includes(w.word),
      )
        .map((w) => w.word)
        .join(' ');
    };

    it('puts back the words a doubtful term pulled along, not only the term', () => {
      // "leave" -> "limae" (doubtful) also changed "house but" into "house and".
      expect(settle('when the house and limae the deal', 'when the house but leave the deal', ['limae'])).toBe(
        'when the house but leave the deal',
      );
    });

    it('keeps the stretches of a term the engine is sure of, and the changes far from any doubtful word', () => {
      expect(
        settle(
          'ask Fendral to send the slides before noon and then sukus the deal',
          'ask friend roll to send the slides before new and then leave the deal',
          ['sukus'],
        ),
      ).toBe('ask Fendral to send the slides before noon and then leave the deal');
    });

    it('does not let one shared short word split a changed stretch', () => {
      expect(
        settle(
          'the order sukus kritrun and rewarding sukus and all it a place',
          'the order sales brush and every morning the article or find a place',
          ['sukus', 'kritrun'],
        ),
      ).toBe('the order sales brush and every morning the article or find a place');
    });

    it('keeps a term the gate kept in the same changed stretch, and drops only the doubtful word there', () => {
      expect(
        settle(
          'law the sukus orinthal you crash are eager',
          'law the ori clear trash are eager',
          ['sukus'],
          ['orinthal'],
        ),
      ).toBe('law the orinthal you crash are eager');
    });

    it('compares words without their case and leaves an utterance without doubtful words as it was', () => {
      expect(settle('we met Sorvik today', 'we met sorvik to day', [])).toBe('we met Sorvik today');
      expect(settle('lezo remember', 'please remember', ['lezo'])).toBe('please remember');
    });
  });
});
