// Every pasted line is checked, and a bad one is named by its number, its text and a closed problem
// code: never refused as a whole on the first bad line, never worded in English by main.
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import {
  checkReplacementRuleLine,
  checkWordLine,
  parseReplacementRules,
  parseWords,
} from '../../../../src-main/dictionaries/dictionary-import.js';
import { LIMITS } from '../../../../src-shared/limits.js';

describe('a words line', () => {
  it('is a word, or a word and its reading, quoted when it holds a comma', () => {
    expect(checkWordLine('Zintrix')).toEqual({ word: 'Zintrix' });
    expect(checkWordLine('Zintrix, zin tricks')).toEqual({ word: 'Zintrix', reading: 'zin tricks' });
    expect(checkWordLine('"Beta, Inc",')).toEqual({ word: 'Beta, Inc' });
    expect(checkWordLine('聞き取り\tききとり')).toEqual({ word: '聞き取り', reading: 'ききとり' });
  });

  it('says what is wrong with it by a closed code', () => {
    expect(checkWordLine('a,b,c')).toBe('too-many-fields');
    expect(checkWordLine(',reading only')).toBe('word-empty');
    expect(checkWordLine('x'.repeat(LIMITS.word + 1))).toBe('word-too-long');
    expect(checkWordLine(`word,${'a'.repeat(LIMITS.reading + 1)}`)).toBe('reading-too-long');
  });

  it('refuses a reading the server would refuse as unpronounceable, with the server’s own rule', () => {
    expect(checkWordLine('Kikitori,123')).toBe('reading-unpronounceable');
    expect(checkWordLine('Ōsaka-株式会社,ｘｘ@@##')).toBe('reading-unpronounceable');
    expect(checkWordLine("O'Neil,oh neel")).toEqual({ word: "O'Neil", reading: 'oh neel' });
    expect(checkWordLine('聞き取り,きき・とり')).toEqual({ word: '聞き取り', reading: 'きき・とり' });
  });

  it('counts characters as the server does (an emoji is one)', () => {
    expect(checkWordLine('😀'.repeat(LIMITS.word))).toEqual({ word: '😀'.repeat(LIMITS.word) });
  });
});

describe('parseWords', () => {
  it('lists every bad line by its number in the text and keeps the good ones with theirs', () => {
    const text = 'word,reading\r\nAlpha,al fa\n\nKikitori,123\nGamma\n,orphan\nDelta,del ta,extra';
    expect(parseWords(text)).toEqual({
      entries: [
        { line: 2, entry: { word: 'Alpha', reading: 'al fa' } },
        { line: 5, entry: { word: 'Gamma' } },
      ],
      problems: [
        { line: 4, text: 'Kikitori,123', problem: 'reading-unpronounceable' },
        { line: 6, text: ',orphan', problem: 'word-empty' },
        { line: 7, text: 'Delta,del ta,extra', problem: 'too-many-fields' },
      ],
    });
  });

  it('skips a header only on the first line', () => {
    expect(parseWords('\uFEFFword\nword').entries).toEqual([{ line: 2, entry: { word: 'word' } }]);
  });

  it('refuses text with no lines at all, by a reason the renderer words', () => {
    const failure = (() => {
      try {
        parseWords('word,reading\n\n  \n');
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(AppFailure);
    expect((failure as AppFailure).error).toEqual({ code: 'validation', field: 'text', reason: 'app.import-no-words' });
  });

  it('answers only bad lines when every line is bad (nothing is refused as a whole)', () => {
    expect(parseWords('a,1\nb,2')).toEqual({
      entries: [],
      problems: [
        { line: 1, text: 'a,1', problem: 'reading-unpronounceable' },
        { line: 2, text: 'b,2', problem: 'reading-unpronounceable' },
      ],
    });
  });
});

describe('replacement rules lines', () => {
  it('take "pattern => replacement" or "pattern,replacement", and name what is wrong', () => {
    expect(checkReplacementRuleLine('key key tory => Kikitori')).toEqual({
      pattern: 'key key tory',
      replacement: 'Kikitori',
    });
    expect(checkReplacementRuleLine('um,')).toEqual({ pattern: 'um', replacement: '' });
    expect(checkReplacementRuleLine('just words')).toBe('rule-format');
    expect(checkReplacementRuleLine(' => something')).toBe('pattern-empty');
    expect(checkReplacementRuleLine(`${'p'.repeat(LIMITS.pattern + 1)} => x`)).toBe('pattern-too-long');
    expect(checkReplacementRuleLine(`p => ${'r'.repeat(LIMITS.replacement + 1)}`)).toBe('replacement-too-long');
    expect(parseReplacementRules('pattern,replacement\ngonna,going to\nnope').problems).toEqual([
      { line: 3, text: 'nope', problem: 'rule-format' },
    ]);
  });
});
