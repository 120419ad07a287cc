import { describe, expect, it } from 'vitest';
import {
  isDoubtfulVocabularyWord,
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
});
