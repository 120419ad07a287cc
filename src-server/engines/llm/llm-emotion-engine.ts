// Emotion through an OpenAI-compatible chat model: seven scores per segment, asked for in batches, and
// one entry for the whole transcript weighted by segment length.
import {
  EMOTION_LABELS,
  type EmotionEntry,
  type EmotionLabel,
  type EmotionScores,
} from '../../../src-shared/analysis.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import type { AnalysisInput, EmotionEngine } from '../../domain/analysis-engines.js';
import { askJson, batches, idRange, languageName, LlmBatchEngine, segmentLine } from './llm-batching.js';
import { unusableAnswer } from './openai-chat-client.js';

const EMOTION_SYSTEM =
  'You rate the emotion expressed in each segment of a transcript. Transcripts may come from speech recognition: ' +
  'lowercase, no punctuation, misheard words. Reply with a JSON object only.';

function neutral(): EmotionScores {
  return { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 1, sadness: 0, surprise: 0 };
}

function top(scores: EmotionScores): { label: EmotionLabel; score: number } {
  let label: EmotionLabel = 'neutral';
  let score = -Infinity;
  for (const l of EMOTION_LABELS) {
    if (scores[l] > score) {
      label = l;
      score = scores[l];
    }
  }
  return { label, score };
}

/**
 * Scores for the seven labels from what a model said: numbers (or numeric strings) per label, missing
 * labels 0, percentages accepted, normalised to sum 1. A bare "label" gives that label 1.
 */
export function normaliseEmotionScores(raw: unknown, label?: unknown): EmotionScores {
  const scores = { anger: 0, disgust: 0, fear: 0, joy: 0, neutral: 0, sadness: 0, surprise: 0 };
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const object = raw as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const l = key.toLowerCase().trim() as EmotionLabel;
      if (!EMOTION_LABELS.includes(l)) continue;
      const v = typeof object[key] === 'string' ? Number(String(object[key]).replace('%', '')) : object[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new TypeError(`the score for "${key}" is not a number`);
      scores[l] = Math.max(0, v);
    }
  } else if (raw !== undefined && raw !== null) {
    throw new TypeError('"scores" is not an object');
  }
  let sum = EMOTION_LABELS.reduce((s, l) => s + scores[l], 0);
  if (sum === 0 && typeof label === 'string' && EMOTION_LABELS.includes(label.toLowerCase().trim() as EmotionLabel)) {
    scores[label.toLowerCase().trim() as EmotionLabel] = 1;
    sum = 1;
  }
  if (sum === 0) throw new TypeError('all scores are zero or missing');
  for (const l of EMOTION_LABELS) scores[l] = scores[l] / sum;
  return scores;
}

export class LlmEmotionEngine extends LlmBatchEngine implements EmotionEngine {
  readonly languages = 'any' as const;

  async analyze(input: AnalysisInput): Promise<EmotionEntry[]> {
    const { document, signal, language } = input;
    const scores = new Map<number, EmotionScores>();
    const spoken = document.segments.filter((s) => s.text.trim());
    for (const batch of batches(spoken, this.maxSegments, this.maxChars)) {
      signal.throwIfAborted();
      let pending = batch;
      // Segments the model skipped are asked for once more on their own.
      for (let round = 0; round < 2 && pending.length; round++) {
        const found = await this.scoreBatch(pending, language, signal);
        for (const [id, s] of found) scores.set(id, s);
        pending = pending.filter((s) => !scores.has(s.id));
      }
      if (pending.length) {
        throw unusableAnswer(
          `The LLM (model "${this.client.model}") gave no emotion scores for segment${pending.length > 1 ? 's' : ''} ${pending.map((s) => s.id).join(', ')}.`,
        );
      }
    }
    const entries: EmotionEntry[] = document.segments.map((s) => {
      const sc = scores.get(s.id) ?? neutral(); // nothing said: neutral
      return { segment_id: s.id, start: s.start, end: s.end, speaker: s.speaker, ...top(sc), scores: sc };
    });
    entries.push(overall(document, entries));
    return entries;
  }

  private scoreBatch(
    segments: TranscriptSegment[],
    language: string,
    signal: AbortSignal,
  ): Promise<Map<number, EmotionScores>> {
    const wanted = new Set(segments.map((s) => s.id));
    const prompt =
      `Rate the emotion of each segment of this ${languageName(language)} transcript. ` +
      'Each line is one segment: [segment id] start-end (hours:minutes:seconds) optional speaker: text.\n' +
      `For every segment give a probability for each of the labels ${EMOTION_LABELS.join(', ')}; the seven numbers are between 0 and 1 and add up to 1. ` +
      'Use "neutral" for plain statements.\n\n' +
      'Reply with a JSON object of this shape, one entry per segment id listed:\n' +
      `{"segments": [{"segment_id": ${segments[0]!.id}, "scores": {${EMOTION_LABELS.map((l) => `"${l}": 0.0`).join(', ')}}}]}\n\n` +
      `Segments:\n${segments.map((s) => segmentLine(s)).join('\n')}`;
    return askJson(
      this.client,
      [
        { role: 'system', content: EMOTION_SYSTEM },
        { role: 'user', content: prompt },
      ],
      signal,
      `emotion scores of ${idRange(segments)}`,
      (value) => {
        const list = value.segments ?? value.results ?? value.emotions;
        if (!Array.isArray(list)) throw new TypeError('"segments" is missing or not a list');
        const out = new Map<number, EmotionScores>();
        for (const raw of list) {
          if (!raw || typeof raw !== 'object') continue;
          const item = raw as Record<string, unknown>;
          const id = Number(item.segment_id ?? item.id);
          if (!wanted.has(id)) continue;
          const source = item.scores ?? (EMOTION_LABELS.some((l) => l in item) ? item : undefined);
          out.set(id, normaliseEmotionScores(source, item.label));
        }
        if (out.size === 0 && wanted.size > 0) throw new TypeError('no entry names a segment_id that was asked for');
        return out;
      },
    );
  }
}

/** The whole transcript: segment scores averaged, weighted by how long each segment lasts. */
function overall(document: TranscriptDocument, entries: EmotionEntry[]): EmotionEntry {
  const spoken = entries.filter((e, i) => document.segments[i]!.text.trim());
  const sums = neutral();
  sums.neutral = 0;
  let total = 0;
  for (const e of spoken) {
    const w = Math.max(e.end - e.start, 0.1);
    for (const l of EMOTION_LABELS) sums[l] += e.scores[l] * w;
    total += w;
  }
  const scores =
    total > 0 ? (Object.fromEntries(EMOTION_LABELS.map((l) => [l, sums[l] / total])) as EmotionScores) : neutral();
  const first = document.segments[0];
  const last = document.segments[document.segments.length - 1];
  return {
    segment_id: null,
    start: first?.start ?? 0,
    end: last?.end ?? document.duration,
    speaker: null,
    ...top(scores),
    scores,
  };
}
