// Written by `npm run fit:confidence`: do not edit by hand (decision 0086). The logistic model that turns
// pocketsphinx's evidence about a word (word-confidence.ts's features) into the probability that it is right.
export const POCKETSPHINX_CONFIDENCE_MODEL = {
  features: ['logit(posterior)', 'unigram backoff', 'bigram backoff', 'word of 1-3 letters', 'log(seconds)'],
  weights: [0.38, -0.8626, -0.1285, 0.4255, 0.1428],
  bias: 1.7756,
  provenance: {
    fittedBy: 'npm run fit:confidence (bench/fit-confidence.ts, bench/confidence.ts)',
    corpus:
      'English with reference transcripts: pocketsphinx-testdata (LibriVox x5, goforward, cards x5) and festival cmu_us_slt_arctic_hts reading 71 everyday and Harvard sentences; tuning = even-numbered sentences and recordings, held out = odd ones',
    underlineBelow: 0.5,
    tuning: {
      words: 354,
      wrong: 59,
      underlined: 22,
      caught: 13,
      precision: 0.591,
      recall: 0.22,
      calibrationError: 0.035,
    },
    heldOut: {
      words: 326,
      wrong: 57,
      underlined: 11,
      caught: 6,
      precision: 0.545,
      recall: 0.105,
      calibrationError: 0.044,
    },
  },
};
