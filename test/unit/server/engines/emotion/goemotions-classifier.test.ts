import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateEmotionModel } from '../../../../../bench/emotion-eval.js';
import { EMOTION_LABELS, type EmotionLabel } from '../../../../../src-shared/analysis.js';
import { topLabel } from '../../../../../src-server/engines/emotion/emotion-scores.js';
import {
  classify,
  defaultWeightsPath,
  encodeWeights,
  getDefaultClassifier,
  GoEmotionsClassifier,
  GOEMOTIONS_ATTRIBUTION,
} from '../../../../../src-server/engines/emotion/goemotions-classifier.js';

const DATA_DIR = path.resolve(import.meta.dirname, '../../../../../../shared/data/goemotions-ekman');
const HAVE_DATA = fs.existsSync(path.join(DATA_DIR, 'ekman_test.tsv'));

function sum(scores: Record<string, number>): number {
  return Object.values(scores).reduce((a, b) => a + b, 0);
}

describe('GoEmotions classifier (committed weights)', () => {
  const cases: Array<[string, EmotionLabel]> = [
    ['i am so happy and grateful for this', 'joy'],
    ['this is disgusting', 'disgust'],
    ['i am terrified of what happens next', 'fear'],
    ['that makes me furious', 'anger'],
    ['i miss her so much it hurts', 'sadness'],
    ['wow i did not expect that at all', 'surprise'],
    ['the meeting is at three', 'neutral'],
    ['we will discuss the budget tomorrow', 'neutral'],
    ["i'm worried about the results", 'fear'],
    ['thank you so much', 'joy'],
  ];
  it.each(cases)('"%s" -> %s', (text, expected) => {
    const scores = classify(text);
    expect(topLabel(scores).label).toBe(expected);
    expect(Object.keys(scores).sort()).toEqual([...EMOTION_LABELS].sort());
    expect(sum(scores)).toBeCloseTo(1, 6);
  });

  it('does not read negated joy as joy', () => {
    for (const text of ['i am not happy about this', "i'm not happy about this", 'i was never happy there']) {
      const scores = classify(text);
      expect(topLabel(scores).label, text).not.toBe('joy');
      expect(scores.joy, text).toBeLessThan(classify(text.replace(/not |never /, '')).joy);
    }
  });

  it('treats a text without words as neutral', () => {
    expect(classify('')).toMatchObject({ neutral: 1, joy: 0 });
    expect(classify('  ... ')).toMatchObject({ neutral: 1 });
  });

  it('ships compact weights with their metadata and attribution', () => {
    const file = defaultWeightsPath();
    expect(fs.statSync(file).size).toBeLessThan(2 * 1024 * 1024);
    const { model } = getDefaultClassifier();
    expect(model.attribution).toBe(GOEMOTIONS_ATTRIBUTION);
    expect(model.attribution).toContain('GoEmotions, Demszky et al. 2020');
    expect(model.labels).toEqual([...EMOTION_LABELS]);
    expect(model.metrics.test.macroF1).toBeGreaterThan(0.5);
    expect(model.metrics.dev.macroF1).toBeGreaterThan(0.5);
  });

  it('round-trips quantised weights', () => {
    const w = Float32Array.from([0.5, -1, 0, 2, 0.25, -0.125, 1, 0, 0, 0, 0, 0, 0, 0.01]);
    const enc = encodeWeights(w, 7, 'int16');
    const clf = new GoEmotionsClassifier({
      ...getDefaultClassifier().model,
      vocabulary: 'happy\nsad',
      weights: enc,
      bias: [0, 0, 0, 0, 0, 0, 0],
      features: { negationWindow: 2, bigrams: false, lexicon: false, weighting: 'x', vocabularySize: 2 },
    });
    const z = clf.logits('happy');
    w.slice(0, 7).forEach((x, i) => expect(z[i]).toBeCloseTo(x, 3));
  });
});

describe.skipIf(!HAVE_DATA)(`GoEmotions test split (needs ${DATA_DIR}; skipped when absent)`, () => {
  it('scores what the weights metadata says', () => {
    const metrics = evaluateEmotionModel(DATA_DIR);
    const { model } = getDefaultClassifier();
    expect(metrics.macroF1).toBeCloseTo(model.metrics.test.macroF1, 3);
    expect(metrics.accuracy).toBeCloseTo(model.metrics.test.accuracy, 3);
    expect(Object.keys(metrics.perLabelF1)).toEqual([...EMOTION_LABELS]);
  });
});
if (!HAVE_DATA) console.warn(`[emotion] ${DATA_DIR} not found: skipping the GoEmotions test-split evaluation`);
