import { beforeAll, describe, expect, it } from 'vitest';
import type { EmotionLabel } from '../../../../../src-shared/analysis.js';
import { topLabel } from '../../../../../src-server/engines/emotion/emotion-scores.js';
import {
  getJapaneseEmotionAnalyzer,
  type JapaneseEmotionAnalyzer,
} from '../../../../../src-server/engines/emotion/japanese-emotion.js';

let analyzer: JapaneseEmotionAnalyzer;
beforeAll(async () => {
  analyzer = await getJapaneseEmotionAnalyzer();
});

describe('Japanese emotion analysis', () => {
  const cases: Array<[string, EmotionLabel]> = [
    ['嬉しいです', 'joy'],
    ['とても楽しかったです', 'joy'],
    ['ありがとうございます', 'joy'],
    ['怖い', 'fear'],
    ['将来が不安です', 'fear'],
    ['本当にむかつく', 'anger'],
    ['腹が立った', 'anger'],
    ['許せない', 'anger'],
    ['悲しいです', 'sadness'],
    ['すごく寂しい', 'sadness'],
    ['驚きました', 'surprise'],
    ['信じられない', 'surprise'],
    ['気持ち悪い', 'disgust'],
    ['会議は三時です', 'neutral'],
    ['', 'neutral'],
  ];
  it.each(cases)('%s -> %s', (text, expected) => {
    const scores = analyzer.classify(text);
    expect(topLabel(scores).label).toBe(expected);
    expect(Object.values(scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it('negation after the word turns joy off', () => {
    for (const text of ['全然嬉しくない', 'あまり楽しくなかった', '楽しくなれない', '嬉しくありません']) {
      expect(topLabel(analyzer.classify(text)).label, text).not.toBe('joy');
      expect(analyzer.hits(text)[0]?.negated, text).toBe(true);
    }
  });

  it('a negated negative emotion is neutral, a double negation is not negated', () => {
    expect(topLabel(analyzer.classify('怖くないよ')).label).toBe('neutral');
    expect(topLabel(analyzer.classify('嫌いじゃない')).label).toBe('neutral');
    expect(topLabel(analyzer.classify('嬉しくないわけではない')).label).toBe('joy');
  });

  it('does not let a negation cross a clause boundary', () => {
    const hits = analyzer.hits('嬉しくて眠れない');
    expect(hits[0]).toMatchObject({ key: '嬉しい', negated: false });
  });

  it('tolerates space-separated transcripts', () => {
    expect(topLabel(analyzer.classify('嬉 しく ない')).label).not.toBe('joy');
    expect(topLabel(analyzer.classify('本当に 嬉しい')).label).toBe('joy');
  });
});
