import { describe, expect, it } from 'vitest';
import {
  estimatePromptTokens,
  MAX_PROMPT_TOKENS,
  vocabularyPrompt,
} from '../../../../../src-server/engines/speech/vocabulary-prompt.js';

describe('vocabularyPrompt', () => {
  it('writes Japanese words with their kana readings, Japanese style', () => {
    const prompt = vocabularyPrompt(
      [
        { word: '聞き取り', reading: 'ききとり' },
        { word: '議事録', reading: 'ぎじろく' },
        { word: 'Zintrix', reading: 'ジントリックス' },
        { word: 'カタカナ', reading: 'カタカナ' },
        { word: '社外秘', reading: null },
      ],
      'ja',
    );
    expect(prompt).toBe(
      '用語: 聞き取り（ききとり）、議事録（ぎじろく）、Zintrix（ジントリックス）、カタカナ、社外秘。',
    );
  });

  it('lists words only, for languages written with spaces (readings there are respellings)', () => {
    expect(vocabularyPrompt([{ word: 'Zintrix', reading: 'zin tricks' }, { word: 'Kikitori' }], 'en')).toBe(
      'Zintrix, Kikitori.',
    );
  });

  it('keeps the dictionary order, drops duplicates and blanks, and leaves no prompt for no words', () => {
    expect(vocabularyPrompt([{ word: ' b ' }, { word: 'a' }, { word: 'b' }, { word: '  ' }, { word: 'c' }], 'en')).toBe(
      'b, a, c.',
    );
    expect(vocabularyPrompt([], 'ja')).toBe('');
    expect(vocabularyPrompt([{ word: ' ' }], 'en')).toBe('');
  });

  it('ignores a reading that is not kana in Japanese', () => {
    expect(vocabularyPrompt([{ word: '聞き取り', reading: 'kikitori' }], 'ja')).toBe('用語: 聞き取り。');
  });

  it('uses the Japanese style for detected language when most words are Japanese', () => {
    expect(
      vocabularyPrompt([{ word: '聞き取り', reading: 'ききとり' }, { word: '議事録' }, { word: 'Zintrix' }], 'auto'),
    ).toBe('用語: 聞き取り（ききとり）、議事録、Zintrix。');
    expect(vocabularyPrompt([{ word: 'Zintrix' }, { word: 'Kikitori' }, { word: '議事録' }], 'auto')).toBe(
      'Zintrix, Kikitori, 議事録.',
    );
  });

  it("stays within whisper's 224-token prompt, keeping whole entries in order", () => {
    const words = Array.from({ length: 300 }, (_, i) => ({ word: `専門用語${i}`, reading: `せんもんようご${i}` }));
    const prompt = vocabularyPrompt(words, 'ja');
    expect(estimatePromptTokens(prompt)).toBeLessThanOrEqual(MAX_PROMPT_TOKENS);
    expect(prompt.startsWith('用語: 専門用語0、専門用語1、')).toBe(true);
    expect(prompt.endsWith('。')).toBe(true);
    const entries = prompt.slice('用語: '.length, -1).split('、');
    // Readings with digits are not kana: the word is listed alone.
    expect(entries).toEqual(words.slice(0, entries.length).map((w) => w.word));
    expect(entries.length).toBeGreaterThan(5);

    const english = vocabularyPrompt(
      Array.from({ length: 500 }, (_, i) => ({ word: `term${i}` })),
      'en',
    );
    expect(estimatePromptTokens(english)).toBeLessThanOrEqual(MAX_PROMPT_TOKENS);
    expect(english.split(', ')[0]).toBe('term0');
  });

  it('skips an entry too long to fit and still lists the shorter ones after it', () => {
    const long = 'あ'.repeat(150);
    expect(vocabularyPrompt([{ word: '議事録' }, { word: long }, { word: '聞き取り' }], 'ja')).toBe(
      '用語: 議事録、聞き取り。',
    );
  });

  it('estimates tokens conservatively', () => {
    expect(estimatePromptTokens('Zintrix, Kikitori.')).toBe(4 + 1 + 1 + 4 + 1);
    expect(estimatePromptTokens('聞き取り')).toBe(8);
  });
});
