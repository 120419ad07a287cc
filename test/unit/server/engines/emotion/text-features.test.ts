import { describe, expect, it } from 'vitest';
import { featureCounts, markNegation, tokenize } from '../../../../../src-server/engines/emotion/text-features.js';

describe('tokenize', () => {
  it('lowercases, expands negative contractions and merges other apostrophes', () => {
    expect(tokenize("I DON'T like it, it's awful!!!")).toEqual([
      'i',
      'do',
      'not',
      'like',
      'it',
      ',',
      'its',
      'awful',
      '!',
      '!',
    ]);
    expect(tokenize('i can’t and won’t')).toEqual(['i', 'can', 'not', 'and', 'will', 'not']);
    expect(tokenize('dont cannot didnt')).toEqual(['do', 'not', 'can', 'not', 'did', 'not']);
  });

  it('caps letter runs at two', () => {
    expect(tokenize('soooo goooood')).toEqual(['soo', 'good']);
  });
});

describe('markNegation', () => {
  it('marks a bounded scope after a negator', () => {
    expect(markNegation(tokenize('i am not happy about this at all'), 3)).toEqual([
      'i',
      'am',
      'not',
      'NOT_happy',
      'NOT_about',
      'NOT_this',
      'at',
      'all',
    ]);
  });

  it('ends the scope at punctuation and clause words', () => {
    expect(markNegation(tokenize('not bad, happy'), 3)).toEqual(['not', 'NOT_bad', ',', 'happy']);
    expect(markNegation(tokenize('i was not sad but happy'), 3)).toEqual([
      'i',
      'was',
      'not',
      'NOT_sad',
      'but',
      'happy',
    ]);
  });

  it('works on unpunctuated transcripts thanks to the window', () => {
    const marked = markNegation(tokenize("i didn't enjoy it we laughed a lot later"), 2);
    expect(marked).toEqual(['i', 'did', 'not', 'NOT_enjoy', 'NOT_it', 'we', 'laughed', 'a', 'lot', 'later']);
  });
});

describe('featureCounts', () => {
  it('builds unigrams, bigrams and pooled lexicon features, negation-aware', () => {
    const f = featureCounts('not happy, so sad', { negationWindow: 2, bigrams: true, lexicon: true });
    expect(f.get('NOT_happy')).toBe(1);
    expect(f.has('happy')).toBe(false);
    expect(f.get('not NOT_happy')).toBe(1);
    expect(f.get('LEX_NOT_joy')).toBe(1);
    expect(f.get('LEX_sadness')).toBe(1);
    expect(f.has('LEX_joy')).toBe(false);
  });
});
