import { describe, expect, it } from 'vitest';
import { diffTokens, diffWords } from '../../../src-shared/word-diff.js';

describe('diffWords', () => {
  it('marks the words each side does not share, in runs, and keeps the rest as they were', () => {
    expect(diffWords('the budget meeting is on Friday', 'the Kikitori budget review is on Friday', 'en')).toEqual({
      before: [
        { text: 'the budget', changed: false },
        { text: 'meeting', changed: true },
        { text: 'is on Friday', changed: false },
      ],
      after: [
        { text: 'the', changed: false },
        { text: 'Kikitori', changed: true },
        { text: 'budget', changed: false },
        { text: 'review', changed: true },
        { text: 'is on Friday', changed: false },
      ],
      separator: ' ',
    });
  });

  it('counts a changed capital or comma as a change (timing alignment would not)', () => {
    const diff = diffWords('the budget, please', 'The budget please', 'en');
    expect(diff.before).toEqual([
      { text: 'the budget,', changed: true },
      { text: 'please', changed: false },
    ]);
    expect(diff.after).toEqual([
      { text: 'The budget', changed: true },
      { text: 'please', changed: false },
    ]);
  });

  it('handles an emptied or a new text', () => {
    expect(diffWords('', 'new words', 'en')).toEqual({
      before: [],
      after: [{ text: 'new words', changed: true }],
      separator: ' ',
    });
    expect(diffWords('old words', '', 'en').before).toEqual([{ text: 'old words', changed: true }]);
    expect(diffWords('same', 'same', 'en')).toEqual({
      before: [{ text: 'same', changed: false }],
      after: [{ text: 'same', changed: false }],
      separator: ' ',
    });
  });

  it('splits Japanese into words, so one corrected word is marked, not the whole segment', () => {
    const diff = diffWords('今日は会議があります。', '今日は打ち合わせがあります。', 'ja');
    expect(diff.separator).toBe('');
    expect(diff.before.map((r) => r.text).join('')).toBe('今日は会議があります。');
    expect(diff.after.map((r) => r.text).join('')).toBe('今日は打ち合わせがあります。');
    expect(diff.before.filter((r) => r.changed).map((r) => r.text)).toEqual(['会議']);
    expect(diff.after.filter((r) => r.changed).map((r) => r.text)).toEqual(['打ち合わせ']);
    expect(diff.after[0]).toEqual({ text: '今日は', changed: false });
  });

  it('keeps the spaces of a Japanese text with Latin words', () => {
    expect(diffTokens('Kikitori の デモ', 'ja').join('')).toBe('Kikitori の デモ');
  });
});
