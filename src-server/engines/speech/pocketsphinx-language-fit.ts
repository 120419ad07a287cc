// How well the built-in English recognizer's words fit English (decision 0070). Speech in another
// language still comes out as English words, but as words the language model rarely puts together
// (most fall back to unigram probabilities), many of them short, at low posterior confidence. A
// logistic score over those shares, fitted by `npm run bench:asr` (BENCH_ONLY=language) on English
// speech (real recordings, festival, six espeak-ng accents) and espeak-ng speech in six other
// languages, on recordings of two clips (about 15 s), with other texts and six more languages held out;
// the threshold keeps false alarms on the tuning English at 1 %. Counting is a few additions per word:
// no extra decoding pass. The signal is weak: at that false-alarm rate it flags only a few percent of
// the other languages' recordings (figures in decision 0070), so it warns rarely and whisper, when
// installed, names the language.

/** What the decoder says about each recognized word, summed over a recording. */
export interface LanguageFitCounts {
  /** Recognized words (fillers and silences excluded). */
  words: number;
  /** Words whose language-model score backed off to the unigram (no bigram or trigram for it). */
  unigram: number;
  /** Words scored by a trigram. */
  trigram: number;
  /** Words below LOW_CONFIDENCE posterior. */
  lowConfidence: number;
  /** Sum of the words' posterior confidences. */
  confidence: number;
  /** Words of at most three letters ("the", "op", "ah"). */
  short: number;
}

export const LOW_CONFIDENCE = 0.5;

export const emptyLanguageFit = (): LanguageFitCounts => ({
  words: 0,
  unigram: 0,
  trigram: 0,
  lowConfidence: 0,
  confidence: 0,
  short: 0,
});

/** Adds one word's evidence; `backoff` is pocketsphinx's n-gram order used for it (1, 2 or 3). */
export function countWord(counts: LanguageFitCounts, word: string, confidence: number, backoff: number): void {
  counts.words++;
  if (backoff === 1) counts.unigram++;
  if (backoff === 3) counts.trigram++;
  if (confidence < LOW_CONFIDENCE) counts.lowConfidence++;
  counts.confidence += confidence;
  if (word.length <= 3) counts.short++;
}

/** The features the score weighs, in LANGUAGE_FIT_MODEL.weights order. */
export function languageFitFeatures(c: LanguageFitCounts): number[] {
  const n = Math.max(1, c.words);
  return [c.unigram / n, c.trigram / n, c.lowConfidence / n, c.confidence / n, c.short / n];
}

/** Fitted by bench/language-mismatch.ts; see its printout for the figures behind them. */
export const LANGUAGE_FIT_MODEL = {
  /** Below this many words there is too little to judge: no verdict. */
  minWords: 12,
  weights: [8.9797, -3.0093, 3.2374, -3.6075, 2.4751],
  bias: -5.8141,
  /** Scores at or above this are a mismatch. */
  threshold: 0.9537,
};

export type LanguageFitModel = typeof LANGUAGE_FIT_MODEL;

/** 0..1: how much the words look like another language forced into English. */
export function mismatchScore(c: LanguageFitCounts, model: LanguageFitModel = LANGUAGE_FIT_MODEL): number {
  const z = languageFitFeatures(c).reduce((sum, x, i) => sum + x * model.weights[i]!, model.bias);
  return 1 / (1 + Math.exp(-z));
}

/** Null: too few words to tell. */
export function isLanguageMismatch(c: LanguageFitCounts, model: LanguageFitModel = LANGUAGE_FIT_MODEL): boolean | null {
  if (c.words < model.minWords) return null;
  return mismatchScore(c, model) >= model.threshold;
}
