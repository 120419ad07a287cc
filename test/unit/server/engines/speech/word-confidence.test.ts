import { describe, expect, it } from 'vitest';
import { POCKETSPHINX_CONFIDENCE_MODEL } from '../../../../../src-server/engines/speech/pocketsphinx-confidence-model.js';
import {
  CONFIDENCE_FEATURES,
  logisticConfidence,
  type PosteriorEvidence,
} from '../../../../../src-server/engines/speech/word-confidence.js';
import { UNCERTAIN_BELOW } from '../../../../../src-shared/word-confidence.js';

const calibrated = logisticConfidence(POCKETSPHINX_CONFIDENCE_MODEL);
const word = (posterior: number, extra: Partial<PosteriorEvidence> = {}): PosteriorEvidence => ({
  word: 'meeting',
  posterior,
  backoff: 3,
  seconds: 0.4,
  ...extra,
});

describe("pocketsphinx's word confidence", () => {
  it('is the fitted calibration, whose held-out underline is wrong at least half of the time', () => {
    const { provenance } = POCKETSPHINX_CONFIDENCE_MODEL;
    expect(provenance.fittedBy).toMatch(/fit:confidence/);
    expect(provenance.underlineBelow).toBe(UNCERTAIN_BELOW);
    expect(provenance.heldOut.precision).toBeGreaterThanOrEqual(0.5);
    expect(provenance.heldOut.caught).toBeGreaterThan(0);
    // Not the raw posterior: the old file's identity model (weight 1 on the logit, nothing else) is gone.
    expect(POCKETSPHINX_CONFIDENCE_MODEL.weights.slice(1).some((w) => w !== 0)).toBe(true);
  });

  it('is a probability that grows with the posterior', () => {
    let previous = 0;
    for (const posterior of [0, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 1]) {
      const p = calibrated(word(posterior));
      expect(p).toBeGreaterThanOrEqual(previous);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
      previous = p;
    }
  });

  it('refuses a model fitted over other features than the engine computes', () => {
    expect(() => logisticConfidence({ features: ['logit(posterior)'], weights: [1], bias: 0 })).toThrow(/refit/);
    expect(() =>
      logisticConfidence({ features: [...CONFIDENCE_FEATURES].reverse(), weights: [1, 0, 0, 0, 0], bias: 0 }),
    ).toThrow(/refit/);
  });
});
