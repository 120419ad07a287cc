// Forced replacements in languages written without spaces: matched on the text, across the engine's
// token boundaries and inside tokens, with word timings kept (decision 0004).
import { describe, expect, it } from 'vitest';
import { applyReplacements } from '../../../../src-server/domain/replacements.js';
import type { TranscriptSegment, TranscriptWord } from '../../../../src-shared/transcript-document.js';

/** Words with explicit times: [text, start, end, confidence?]. */
const segment = (id: number, words: Array<[string, number, number, number?]>): TranscriptSegment => {
  const ws: TranscriptWord[] = words.map(([word, start, end, confidence]) => ({
    word,
    start,
    end,
    confidence: confidence ?? 0.9,
  }));
  return {
    id,
    start: ws[0]?.start ?? 0,
    end: ws.at(-1)?.end ?? 0,
    speaker: null,
    text: ws.map((w) => w.word).join(''),
    words: ws,
  };
};

describe('applyReplacements in Japanese', () => {
  it("merges the words a pattern spans, from the first one's start to the last one's end", () => {
    const { segments, applied } = applyReplacements(
      [
        segment(4, [
          ['今日', 0, 0.4],
          ['は', 0.4, 0.5],
          ['聞き', 0.5, 0.8, 0.7],
          ['とり', 0.8, 1.1, 0.8],
          ['の', 1.1, 1.2],
          ['話', 1.2, 1.5],
        ]),
      ],
      [{ pattern: '聞きとり', replacement: 'Kikitori' }],
      'ja',
    );
    expect(segments[0]!.text).toBe('今日はKikitoriの話');
    expect(segments[0]!.words).toEqual([
      { word: '今日', start: 0, end: 0.4, confidence: 0.9 },
      { word: 'は', start: 0.4, end: 0.5, confidence: 0.9 },
      {
        word: 'Kikitori',
        start: 0.5,
        end: 1.1,
        confidence: 0.7,
        replaced: { pattern: '聞きとり', original: '聞きとり' },
      },
      { word: 'の', start: 1.1, end: 1.2, confidence: 0.9 },
      { word: '話', start: 1.2, end: 1.5, confidence: 0.9 },
    ]);
    expect(applied).toEqual([{ pattern: '聞きとり', replacement: 'Kikitori', count: 1, segment_ids: [4] }]);
  });

  it("splits a word's time by characters when the match starts or ends inside it", () => {
    // "は聞" + "きとりの": the match starts after "は" and ends before "の".
    const { segments } = applyReplacements(
      [
        segment(0, [
          ['は聞', 1, 2],
          ['きとりの', 2, 4],
        ]),
      ],
      [{ pattern: '聞きとり', replacement: '聞き取り' }],
      'ja',
    );
    expect(segments[0]!.text).toBe('は聞き取りの');
    expect(segments[0]!.words).toEqual([
      { word: 'は', start: 1, end: 1.5, confidence: 0.9 },
      {
        word: '聞き取り',
        start: 1.5,
        end: 3.5,
        confidence: 0.9,
        replaced: { pattern: '聞きとり', original: '聞きとり' },
      },
      { word: 'の', start: 3.5, end: 4, confidence: 0.9 },
    ]);
  });

  it("matches inside one word, and the sentence's punctuation stays with the replacement without taking time", () => {
    const { segments } = applyReplacements(
      [segment(0, [['「ききとり」です。', 0, 3]])],
      [{ pattern: 'ききとり', replacement: '聞き取り' }],
      'ja',
    );
    // 「 and 」 take no time: the six characters き,き,と,り,で,す share the three seconds.
    expect(segments[0]!.words).toEqual([
      {
        word: '「聞き取り」',
        start: 0,
        end: 2,
        confidence: 0.9,
        replaced: { pattern: 'ききとり', original: 'ききとり' },
      },
      { word: 'です。', start: 2, end: 3, confidence: 0.9 },
    ]);
    expect(segments[0]!.text).toBe('「聞き取り」です。');
  });

  it('ignores spaces and width, and punctuation at the ends of a pattern', () => {
    const { segments } = applyReplacements(
      [
        segment(0, [
          ['ｷｷﾄﾘ', 0, 1],
          ['と', 1, 1.2],
          ['ＡＢＣ', 1.2, 2],
        ]),
      ],
      [
        { pattern: 'キキ トリ', replacement: '聞き取り' },
        { pattern: '「abc」', replacement: 'ABC社' },
      ],
      'ja',
    );
    expect(segments[0]!.text).toBe('聞き取りとABC社');
  });

  it('keeps leftmost-longest, counts every match and leaves untouched segments as they were', () => {
    const untouched = segment(1, [
      ['別の', 5, 6],
      ['話', 6, 7],
    ]);
    const { segments, applied } = applyReplacements(
      [
        segment(0, [
          ['議事', 0, 1],
          ['録', 1, 2],
          ['と', 2, 3],
          ['議事', 3, 4],
        ]),
        untouched,
      ],
      [
        { pattern: '議事', replacement: 'ぎじ' },
        { pattern: '議事録', replacement: 'Minutes' },
      ],
      'ja',
    );
    expect(segments[0]!.words.map((w) => w.word)).toEqual(['Minutes', 'と', 'ぎじ']);
    expect(segments[1]).toBe(untouched);
    expect(applied).toEqual(
      expect.arrayContaining([
        { pattern: '議事録', replacement: 'Minutes', count: 1, segment_ids: [0] },
        { pattern: '議事', replacement: 'ぎじ', count: 1, segment_ids: [0] },
      ]),
    );
  });

  it('does not cut a Latin word or a number in the middle', () => {
    const { segments } = applyReplacements(
      [
        segment(0, [
          ['scattered', 0, 1],
          ['の', 1, 2],
          ['cat', 2, 3],
          ['10', 3, 4],
          ['時', 4, 5],
        ]),
      ],
      [
        { pattern: 'cat', replacement: '猫' },
        { pattern: '1', replacement: '一' },
      ],
      'ja',
    );
    expect(segments[0]!.text).toBe('scatteredの猫10時');
    expect(
      applyReplacements([segment(0, [['cats', 0, 1]])], [{ pattern: 'cat', replacement: '猫' }], 'ja').segments[0]!
        .text,
    ).toBe('cats');
  });

  it('matches two replacements inside one word, each with its share of the time', () => {
    const { segments } = applyReplacements(
      [segment(0, [['あいうえ', 0, 4]])],
      [
        { pattern: 'あい', replacement: 'A' },
        { pattern: 'うえ', replacement: 'B' },
      ],
      'ja',
    );
    expect(segments[0]!.words).toEqual([
      { word: 'A', start: 0, end: 2, confidence: 0.9, replaced: { pattern: 'あい', original: 'あい' } },
      { word: 'B', start: 2, end: 4, confidence: 0.9, replaced: { pattern: 'うえ', original: 'うえ' } },
    ]);
  });

  it('deletes with an empty replacement, and words stay in time order', () => {
    const { segments } = applyReplacements(
      [
        segment(0, [
          ['えーと', 0, 1],
          ['今日', 1, 2],
        ]),
      ],
      [{ pattern: 'えーと', replacement: '' }],
      'ja',
    );
    expect(segments[0]!.text).toBe('今日');
    const words = segments[0]!.words;
    expect(words.every((w, i) => w.end >= w.start && (i === 0 || w.start >= words[i - 1]!.end))).toBe(true);
  });

  it('handles 10,000 Japanese words and 2,000 rules', () => {
    const rules = Array.from({ length: 2000 }, (_, k) => ({ pattern: `語${k}彙`, replacement: `R${k}` }));
    // Each pattern is split across two engine tokens: "語k" + "彙".
    const words: Array<[string, number, number]> = [];
    for (let i = 0; i < 5000; i++) words.push([`語${i % 3000}`, 2 * i, 2 * i + 1], ['彙', 2 * i + 1, 2 * i + 2]);
    const segments = Array.from({ length: 100 }, (_, s) => segment(s, words.slice(s * 100, (s + 1) * 100)));
    const result = applyReplacements(segments, rules, 'ja');
    const all = result.segments.flatMap((s) => s.words);
    const replaced = all.filter((w) => w.word.startsWith('R'));
    // "語1" is a prefix of "語10".."語1999": only whole patterns count, so exactly i%3000 < 2000 hits.
    expect(replaced.length).toBe(Array.from({ length: 5000 }, (_, i) => i % 3000).filter((k) => k < 2000).length);
    expect(replaced.every((w) => w.end - w.start === 2)).toBe(true);
  });
});
