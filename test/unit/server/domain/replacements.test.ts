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
    const { segments, applied } = applyReplacements(
      [segment(0, ['The', 'CAT', 'scattered', 'cats'])],
      [{ pattern: 'cat', replacement: 'dog' }],
    );
    expect(segments[0]!.text).toBe('The dog scattered cats');
    expect(applied).toEqual([{ pattern: 'cat', replacement: 'dog', count: 1, segment_ids: [0] }]);
  });

  it('merges a multi-word match into one word spanning its timing', () => {
    const { segments } = applyReplacements(
      [segment(3, ['we', 'use', 'kiki', 'tory', 'daily'])],
      [{ pattern: 'Kiki Tory', replacement: 'Kikitori' }],
    );
    expect(segments[0]!.text).toBe('we use Kikitori daily');
    expect(segments[0]!.words[2]).toEqual({
      word: 'Kikitori',
      start: 2,
      end: 4,
      confidence: 0.87,
      replaced: { pattern: 'Kiki Tory', original: 'kiki tory' },
    });
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
    const { segments, applied } = applyReplacements(
      [segment(0, ['hello,', 'world!']), untouched],
      [{ pattern: 'world', replacement: 'there' }],
    );
    expect(segments[0]!.text).toBe('hello, there');
    expect(segments[1]).toBe(untouched);
    expect(applied[0]!.count).toBe(1);
  });

  it('can delete a word with an empty replacement', () => {
    const { segments } = applyReplacements([segment(0, ['um', 'hello'])], [{ pattern: 'um', replacement: '' }]);
    expect(segments[0]!.text).toBe('hello');
  });

  it('joins words without spaces for languages written without them', () => {
    const { segments } = applyReplacements(
      [segment(0, ['きき', 'とり', 'です'])],
      [{ pattern: 'きき とり', replacement: '聞き取り' }],
      'ja',
    );
    expect(segments[0]!.text).toBe('聞き取りです');
  });
});

describe('applyReplacements: overlaps and scale', () => {
  const texts = (result: { segments: TranscriptSegment[] }) => result.segments.map((s) => s.text);

  it('lets the leftmost match win where two patterns overlap, whatever the rules order', () => {
    const rules = [
      { pattern: 'a b', replacement: 'X' },
      { pattern: 'b c', replacement: 'Y' },
    ];
    expect(texts(applyReplacements([segment(0, ['a', 'b', 'c'])], rules))).toEqual(['X c']);
    expect(texts(applyReplacements([segment(0, ['a', 'b', 'c'])], [...rules].reverse()))).toEqual(['X c']);
    const { applied } = applyReplacements([segment(0, ['z', 'b', 'c', 'a', 'b'])], rules);
    expect(applied).toEqual(
      expect.arrayContaining([
        { pattern: 'b c', replacement: 'Y', count: 1, segment_ids: [0] },
        { pattern: 'a b', replacement: 'X', count: 1, segment_ids: [0] },
      ]),
    );
  });

  it('takes the longest pattern starting at a word, and falls back to a shorter one when the longer breaks off', () => {
    const rules = [
      { pattern: 'new', replacement: 'N' },
      { pattern: 'new york', replacement: 'NY' },
      { pattern: 'new york city hall', replacement: 'NYCH' },
    ];
    const { segments, applied } = applyReplacements(
      [segment(0, ['New', 'York', 'City', 'Hall', 'new', 'york', 'city', 'new'])],
      rules,
    );
    expect(segments[0]!.text).toBe('NYCH NY city N');
    expect(segments[0]!.words.map((w) => [w.word, w.start, w.end])).toEqual([
      ['NYCH', 0, 4],
      ['NY', 4, 6],
      ['city', 6, 7],
      ['N', 7, 8],
    ]);
    expect(applied.map((a) => [a.pattern, a.count])).toEqual([
      ['new york city hall', 1],
      ['new york', 1],
      ['new', 1],
    ]);
  });

  it('replaces adjacent matches one after the other, counting each', () => {
    const { segments, applied } = applyReplacements(
      [segment(0, ['cat', 'Cat', 'CAT.']), segment(1, ['a', 'b', 'a', 'b', 'a'])],
      [
        { pattern: 'cat', replacement: 'dog' },
        { pattern: 'a b', replacement: 'X' },
      ],
    );
    expect(texts({ segments })).toEqual(['dog dog dog', 'X X a']);
    expect(segments[1]!.words.map((w) => [w.start, w.end])).toEqual([
      [0, 2],
      [2, 4],
      [4, 5],
    ]);
    expect(applied).toEqual([
      { pattern: 'cat', replacement: 'dog', count: 3, segment_ids: [0] },
      { pattern: 'a b', replacement: 'X', count: 2, segment_ids: [1] },
    ]);
  });

  it('does not match a replacement again, and the first of two equal patterns wins', () => {
    const chained = applyReplacements(
      [segment(0, ['a', 'b', 'c'])],
      [
        { pattern: 'a b', replacement: 'c' },
        { pattern: 'c', replacement: 'd' },
      ],
    );
    expect(texts(chained)).toEqual(['c d']);
    const duplicate = applyReplacements(
      [segment(0, ['Um', 'yes'])],
      [
        { pattern: 'um', replacement: '' },
        { pattern: 'UM', replacement: 'uh' },
      ],
    );
    expect(texts(duplicate)).toEqual(['yes']);
    expect(duplicate.applied).toEqual([{ pattern: 'um', replacement: '', count: 1, segment_ids: [0] }]);
  });

  it('keeps the lowest known confidence of a merged run, and null when none is known', () => {
    const words = [
      { word: 'a', start: 0, end: 1, confidence: null },
      { word: 'b', start: 1, end: 2, confidence: 0.4 },
      { word: 'c', start: 2, end: 3, confidence: 0.7 },
      { word: 'd', start: 3, end: 4, confidence: null },
    ];
    const { segments } = applyReplacements(
      [{ id: 0, start: 0, end: 4, speaker: null, text: 'a b c d', words }],
      [
        { pattern: 'a b c', replacement: 'X' },
        { pattern: 'd', replacement: 'Y' },
      ],
    );
    expect(segments[0]!.words).toEqual([
      { word: 'X', start: 0, end: 3, confidence: 0.4, replaced: { pattern: 'a b c', original: 'a b c' } },
      { word: 'Y', start: 3, end: 4, confidence: null, replaced: { pattern: 'd', original: 'd' } },
    ]);
  });

  it('matches a Japanese pattern across token boundaries, written with spaces or not', () => {
    // Until issue 10 an unbroken pattern matched only a single token ("ききとりノ聞き取り").
    const { segments } = applyReplacements(
      [segment(0, ['きき', 'とり', 'の', 'ききとり'])],
      [
        { pattern: 'ききとり', replacement: '聞き取り' },
        { pattern: 'の', replacement: 'ノ' },
      ],
      'ja',
    );
    expect(segments[0]!.text).toBe('聞き取りノ聞き取り');
  });

  it('rewrites 10,000 words with 2,000 rules correctly', () => {
    // Words cycle through w0..w2999. Rules: w0..w999 alone, and the pairs "wk w(k+1)" for k from
    // 1000 to 1999 (so a pair starting at an odd k never gets its turn: its first word is taken by
    // the pair before). Words w2000..w2999 have no rule.
    const WORDS = 10_000;
    const rules = [
      ...Array.from({ length: 1000 }, (_, k) => ({ pattern: `W${k}`, replacement: `R${k}` })),
      ...Array.from({ length: 1000 }, (_, j) => ({
        pattern: `w${1000 + j} w${1001 + j}`,
        replacement: `P${1000 + j}`,
      })),
    ];
    const words = Array.from({ length: WORDS }, (_, i) => `w${i % 3000}${i % 7 === 0 ? ',' : ''}`);
    const per = 100;
    const segments = Array.from({ length: WORDS / per }, (_, s) => segment(s, words.slice(s * per, (s + 1) * per)));

    const result = applyReplacements(segments, rules);

    const expected: string[][] = [];
    for (let s = 0; s < WORDS / per; s++) {
      const out: string[] = [];
      for (let i = s * per; i < (s + 1) * per; i++) {
        const k = i % 3000;
        if (k < 1000) out.push(`R${k}`);
        else if (k < 2000) {
          if (k % 2 === 0 && i + 1 < (s + 1) * per) out.push(`P${k}`);
          else if (k % 2 === 0 || i === s * per) out.push(words[i]!);
          // an odd k inside the segment was taken by the pair before it
        } else out.push(words[i]!);
      }
      expected.push(out);
    }
    expect(result.segments.map((seg) => seg.words.map((w) => w.word))).toEqual(expected);
    expect(result.segments.map((seg) => seg.text)).toEqual(expected.map((e) => e.join(' ')));
    // Every merged word spans exactly the words it replaced.
    for (const seg of result.segments) {
      let t = 0;
      for (const w of seg.words) {
        expect(w.start).toBe(t);
        t = w.end;
      }
      expect(t).toBe(per);
    }
    const counts = new Map(result.applied.map((a) => [a.replacement, a.count]));
    expect(counts.get('R0')).toBe(4);
    expect(counts.get('R999')).toBe(4);
    expect(counts.get('P1000')).toBe(3);
    expect(counts.has('P1001')).toBe(false);
    expect(result.applied.reduce((n, a) => n + a.count, 0)).toBe(
      expected.flat().filter((w) => /^[RP]\d+$/.test(w)).length,
    );
  });
});
