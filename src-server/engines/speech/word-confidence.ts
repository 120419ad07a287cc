// A word's confidence means one thing whatever recognized it: the probability that the word is right
// (decision 0086), so that one threshold (src-shared/word-confidence.ts) can say "more likely wrong
// than right". Pocketsphinx's lattice posterior alone does not mean that: most correct words score
// below 0.85, so the app underlined most of every transcript. Here the posterior and what else the
// decoder knows about the word go through a logistic model fitted on the benchmark's speech by
// bench/confidence.ts and stored, with its provenance, in pocketsphinx-confidence-model.ts.

/** What pocketsphinx says about one recognized word. */
export interface PosteriorEvidence {
  /** The word as the dictionary spells it. */
  word: string;
  /** Lattice posterior, 0..1. */
  posterior: number;
  /** The n-gram order the language model used for the word: 1 (fell back to a unigram) to 3. */
  backoff: number;
  /** How long the word lasts, in seconds. */
  seconds: number;
}

/** Turns the decoder's evidence about a word into its confidence. */
export type ConfidenceCalibration = (evidence: PosteriorEvidence) => number;

/** The features the model weighs, in this order (the fitted file lists them so a mismatch is caught). */
export const CONFIDENCE_FEATURES = [
  'logit(posterior)',
  'unigram backoff',
  'bigram backoff',
  'word of 1-3 letters',
  'log(seconds)',
] as const;

export interface LogisticConfidenceModel {
  features: readonly string[];
  weights: readonly number[];
  bias: number;
}

/** Keeps the logit finite: pocketsphinx reports posteriors of exactly 0 and 1. */
const EDGE = 1e-4;

export function confidenceFeatures(evidence: PosteriorEvidence): number[] {
  const p = Math.min(1 - EDGE, Math.max(EDGE, evidence.posterior));
  return [
    Math.log(p / (1 - p)),
    evidence.backoff === 1 ? 1 : 0,
    evidence.backoff === 2 ? 1 : 0,
    evidence.word.length <= 3 ? 1 : 0,
    Math.log(Math.max(0.01, evidence.seconds)),
  ];
}

/** The probability that the word is right, by `model`. */
export function logisticConfidence(model: LogisticConfidenceModel): ConfidenceCalibration {
  if (model.features.join('|') !== CONFIDENCE_FEATURES.join('|') || model.weights.length !== CONFIDENCE_FEATURES.length)
    throw new Error('confidence model: its features are not the ones confidenceFeatures computes; refit it');
  return (evidence) => {
    const z = confidenceFeatures(evidence).reduce((sum, x, i) => sum + x * model.weights[i]!, model.bias);
    return 1 / (1 + Math.exp(-z));
  };
}
