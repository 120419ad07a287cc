// Emotion analysis that runs in-process, without a model server: the embedded GoEmotions linear
// classifier for English (goemotions-classifier.ts) and kuromoji + a lexicon for Japanese
// (japanese-emotion.ts). Both classify each segment on its own, in microseconds.
//
// Output: one entry per segment, in transcript order, then one for the whole transcript
// (segment_id null, 0..duration) whose scores are the duration-weighted mean of the segment
// scores: a long calm stretch outweighs one angry sentence, and the overall label agrees with what
// the segments say. Segments without text are neutral and left out of the mean (silence is not
// calm speech), unless nothing was said at all.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { EMOTION_LABELS, type EmotionEntry, type EmotionScores } from '../../../src-shared/analysis.js';
import type { TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, EmotionEngine } from '../../domain/analysis-engines.js';
import { neutralScores, topLabel, zeroScores } from './emotion-scores.js';
import { type GoEmotionsClassifier, getDefaultClassifier } from './goemotions-classifier.js';
import { getJapaneseEmotionAnalyzer, type JapaneseEmotionAnalyzer } from './japanese-emotion.js';

export interface LocalEmotionEngineOptions {
  /** The English classifier (default: the committed GoEmotions weights, loaded on first use). */
  english?: () => GoEmotionsClassifier;
  /** The Japanese analyser (default: kuromoji + the built-in lexicon, loaded on first use). */
  japanese?: () => Promise<JapaneseEmotionAnalyzer>;
  /** Segments classified between yields to the event loop (abort checks happen at every segment). */
  yieldEvery?: number;
}

/** Text of a segment; falls back to its words when the text is empty. */
function segmentText(segment: TranscriptSegment): string {
  const text = segment.text.trim();
  return text !== ''
    ? text
    : segment.words
        .map((w) => w.word)
        .join(' ')
        .trim();
}

function rounded(scores: EmotionScores): EmotionScores {
  const out = zeroScores();
  for (const label of EMOTION_LABELS) out[label] = Math.round(scores[label] * 1e4) / 1e4;
  return out;
}

export class LocalEmotionEngine implements EmotionEngine {
  readonly name = 'goemotions-linear';
  readonly languages = ['en', 'ja'] as const;
  private readonly english: () => GoEmotionsClassifier;
  private readonly japanese: () => Promise<JapaneseEmotionAnalyzer>;
  private readonly yieldEvery: number;

  constructor(options: LocalEmotionEngineOptions = {}) {
    this.english = options.english ?? getDefaultClassifier;
    this.japanese = options.japanese ?? getJapaneseEmotionAnalyzer;
    this.yieldEvery = options.yieldEvery ?? 200;
  }

  async analyze({ document, language, signal }: AnalysisInput): Promise<EmotionEntry[]> {
    signal.throwIfAborted();
    const lang = (language || document.language || 'en').toLowerCase();
    let classify: (text: string) => EmotionScores;
    if (lang === 'ja' || lang.startsWith('ja-')) {
      const analyzer = await this.japanese();
      classify = (text) => analyzer.classify(text);
    } else {
      const classifier = this.english();
      classify = (text) => classifier.classify(text);
    }

    const entries: EmotionEntry[] = [];
    const mean = zeroScores();
    let totalWeight = 0;
    for (const [n, segment] of document.segments.entries()) {
      if (n > 0 && n % this.yieldEvery === 0) await yieldToEventLoop();
      signal.throwIfAborted();
      const text = segmentText(segment);
      const scores = text === '' ? neutralScores() : classify(text);
      if (text !== '') {
        // Zero-length segments still count a little, so a transcript without timings averages evenly.
        const weight = Math.max(segment.end - segment.start, 0) + 1e-3;
        for (const label of EMOTION_LABELS) mean[label] += weight * scores[label];
        totalWeight += weight;
      }
      const { label, score } = topLabel(scores);
      entries.push({
        segment_id: segment.id,
        start: segment.start,
        end: segment.end,
        speaker: segment.speaker,
        label,
        score: Math.round(score * 1e4) / 1e4,
        scores: rounded(scores),
      });
    }
    signal.throwIfAborted();

    let overall = neutralScores();
    if (totalWeight > 0) {
      overall = zeroScores();
      for (const label of EMOTION_LABELS) overall[label] = mean[label] / totalWeight;
    }
    const { label, score } = topLabel(overall);
    entries.push({
      segment_id: null,
      start: 0,
      end: document.duration,
      speaker: null,
      label,
      score: Math.round(score * 1e4) / 1e4,
      scores: rounded(overall),
    });
    return entries;
  }
}
