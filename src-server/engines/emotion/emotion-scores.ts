// Small helpers over EmotionScores, shared by the English classifier, the Japanese lexicon
// analyser and the engine.
import { EMOTION_LABELS, type EmotionLabel, type EmotionScores } from '../../../src-shared/analysis.js';

export function zeroScores(): EmotionScores {
  return { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 0, sadness: 0, surprise: 0 };
}

/** What an empty or unintelligible text gets: certainly neutral. */
export function neutralScores(): EmotionScores {
  return { ...zeroScores(), neutral: 1 };
}

/** Scores from values in EMOTION_LABELS order. */
export function scoresFromArray(values: ArrayLike<number>): EmotionScores {
  const scores = zeroScores();
  EMOTION_LABELS.forEach((label, i) => {
    scores[label] = values[i] ?? 0;
  });
  return scores;
}

/** Softmax of logits in EMOTION_LABELS order. */
export function softmaxScores(logits: ArrayLike<number>): EmotionScores {
  let max = -Infinity;
  for (let i = 0; i < EMOTION_LABELS.length; i++) max = Math.max(max, logits[i] ?? 0);
  const exps = EMOTION_LABELS.map((_, i) => Math.exp((logits[i] ?? 0) - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return scoresFromArray(exps.map((e) => e / sum));
}

/** The most probable label and its probability (ties go to the earlier label in EMOTION_LABELS). */
export function topLabel(scores: EmotionScores): { label: EmotionLabel; score: number } {
  let best: EmotionLabel = 'neutral';
  let bestScore = -Infinity;
  for (const label of EMOTION_LABELS) {
    if (scores[label] > bestScore) {
      best = label;
      bestScore = scores[label];
    }
  }
  return { label: best, score: bestScore };
}
