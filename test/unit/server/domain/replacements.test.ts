import { describe, expect, it } from 'vitest';
import { applyReplacements } from '../../../../src-server/domain/replacements.js';
import type { TranscriptSegment } from '../../../../src-shared/transcript-document.js';

const segment = (id: number, words: string[]): TranscriptSegment => ({
  id,
  start: 0,
  end: words.length,
  speaker: null,
  text: words.join(' '),
  words: words.map((word, i) => ({ word, start: i, end: i + 1, confidence: 0.9 - i / 100 })),
});

describe('applyReplacements', () => {
  it('matches whole words, case-insensitively', () => {
    const { segments, applied } = applyReplacements([segment(0, ['The', 'CAT', 'scattered', 'cats'])], [{ pattern: 'cat', replacement: 'dog' }]);
    expect(segments[0]!.text).toBe('The dog scattered cats');
    expect(applied).toEqual([{ pattern: 'cat', replacement: 'dog', count: 1, segment_ids: [0] }]);
  });

  it('merges a multi-word match into one word spanning its timing', () => {
    const { segments } = applyReplacements([segment(3, ['we', 'use', 'kiki', 'tory', 'daily'])], [{ pattern: 'Kiki Tory', replacement: 'Kikitori' }]);
    expect(segments[0]!.text).toBe('we use Kikitori daily');
    expect(segments[0]!.words[2]).toEqual({ word: 'Kikitori', start: 2, end: 4, confidence: 0.87 });
  });

  it('prefers the longer pattern and counts across segments', () => {
    const { segments, applied } = applyReplacements(
      [segment(0, ['new', 'york', 'city']), segment(1, ['new', 'york'])],
      [
        { pattern: 'new york', replacement: 'NY' },
        { pattern: 'new york city', replacement: 'NYC' },
      ],
    );
    expect(segments.map((s) => s.text)).toEqual(['NYC', 'NY']);
    expect(applied).toEqual(
      expect.arrayContaining([
        { pattern: 'new york city', replacement: 'NYC', count: 1, segment_ids: [0] },
        { pattern: 'new york', replacement: 'NY', count: 1, segment_ids: [1] },
      ]),
    );
  });

  it('ignores punctuation around words and leaves untouched segments as they were', () => {
    const untouched = segment(1, ['nothing', 'here']);
    const { segments, applied } = applyReplacements([segment(0, ['hello,', 'world!']), untouched], [{ pattern: 'world', replacement: 'there' }]);
    expect(segments[0]!.text).toBe('hello, there');
    expect(segments[1]).toBe(untouched);
    expect(applied[0]!.count).toBe(1);
  });

  it('can delete a word with an empty replacement', () => {
    const { segments } = applyReplacements([segment(0, ['um', 'hello'])], [{ pattern: 'um', replacement: '' }]);
    expect(segments[0]!.text).toBe('hello');
  });

  it('joins words without spaces for languages written without them', () => {
    const { segments } = applyReplacements([segment(0, ['きき', 'とり', 'です'])], [{ pattern: 'きき とり', replacement: '聞き取り' }], 'ja');
    expect(segments[0]!.text).toBe('聞き取りです');
  });
});
