// The embedded English emotion classifier: multinomial logistic regression (softmax) over the
// unigram + bigram features of text-features.ts, trained on GoEmotions mapped to Ekman's six
// emotions plus neutral (bench/train-emotion.ts; "GoEmotions, Demszky et al. 2020", CC BY 4.0).
//
// The weights (goemotions-weights.json, next to this file) are a vocabulary plus a quantised
// weight matrix in base64; they are read lazily, once, on the first classify().
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EMOTION_LABELS, type EmotionScores } from '../../../src-shared/analysis.js';
import { EngineError } from '../../domain/engine-error.js';
import { neutralScores, softmaxScores } from './emotion-scores.js';
import { type FeatureConfig, tokenize, vectorize } from './text-features.js';

export const GOEMOTIONS_ATTRIBUTION =
  'GoEmotions, Demszky et al. 2020 (https://github.com/google-research/google-research/tree/master/goemotions), CC BY 4.0';

export const WEIGHTS_FORMAT = 'kikitori-emotion-linear/1';

const WORD_RE = /[\p{L}\p{N}\p{Extended_Pictographic}]/u;

export interface SplitMetrics {
  macroF1: number;
  accuracy: number;
  perLabelF1: Record<string, number>;
}

/** The committed weights file. */
export interface EmotionModelFile {
  format: typeof WEIGHTS_FORMAT;
  attribution: string;
  labels: string[];
  features: FeatureConfig & { weighting: string; vocabularySize: number };
  trainedAt: string;
  training: Record<string, unknown>;
  metrics: { dev: SplitMetrics; test: SplitMetrics };
  /** Features, "\n"-joined, in weight-row order. */
  vocabulary: string;
  /** Row-major [feature][label] weights: value = int * scale[label]. */
  weights: { dtype: 'int8' | 'int16'; scale: number[]; data: string };
  bias: number[];
}

/** Quantises a row-major [feature][label] matrix, one scale per label (column). */
export function encodeWeights(
  matrix: Float32Array | Float64Array,
  labels: number,
  dtype: 'int8' | 'int16',
): EmotionModelFile['weights'] {
  const qmax = dtype === 'int8' ? 127 : 32767;
  const scale: number[] = [];
  for (let c = 0; c < labels; c++) {
    let max = 0;
    for (let i = c; i < matrix.length; i += labels) max = Math.max(max, Math.abs(matrix[i]!));
    scale.push(max / qmax || 1);
  }
  const q = dtype === 'int8' ? new Int8Array(matrix.length) : new Int16Array(matrix.length);
  for (let i = 0; i < matrix.length; i++) q[i] = Math.round(matrix[i]! / scale[i % labels]!);
  return { dtype, scale, data: Buffer.from(q.buffer, q.byteOffset, q.byteLength).toString('base64') };
}

function decodeWeights(w: EmotionModelFile['weights'], labels: number): Float32Array {
  const bytes = Buffer.from(w.data, 'base64');
  const aligned = new Uint8Array(bytes.byteLength);
  aligned.set(bytes);
  const q = w.dtype === 'int8' ? new Int8Array(aligned.buffer) : new Int16Array(aligned.buffer);
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = q[i]! * w.scale[i % labels]!;
  return out;
}

/** The installed weights do not fit this code: only reinstalling fixes that. */
function unusableWeights(detail: string): EngineError {
  return new EngineError(
    'unavailable',
    'Emotion analysis cannot run on this server: its model files are damaged or from another version.',
    { detail },
  );
}

export class GoEmotionsClassifier {
  readonly model: Omit<EmotionModelFile, 'vocabulary' | 'weights'>;
  private readonly vocabulary: Map<string, number>;
  private readonly weights: Float32Array;
  private readonly bias: Float64Array;

  constructor(file: EmotionModelFile) {
    if (file.format !== WEIGHTS_FORMAT)
      throw unusableWeights(`unsupported emotion weights format: ${String(file.format)}`);
    if (file.labels.join() !== EMOTION_LABELS.join())
      throw unusableWeights('emotion weights labels do not match EMOTION_LABELS');
    const { vocabulary, weights, ...model } = file;
    this.model = model;
    const features = vocabulary.split('\n');
    this.vocabulary = new Map(features.map((f, i) => [f, i]));
    this.weights = decodeWeights(weights, EMOTION_LABELS.length);
    if (this.weights.length !== features.length * EMOTION_LABELS.length)
      throw unusableWeights('emotion weights size mismatch');
    this.bias = Float64Array.from(file.bias);
  }

  static fromFile(filePath: string): GoEmotionsClassifier {
    return new GoEmotionsClassifier(JSON.parse(fs.readFileSync(filePath, 'utf8')) as EmotionModelFile);
  }

  /** Unnormalised scores in EMOTION_LABELS order. */
  logits(text: string): Float64Array {
    const k = EMOTION_LABELS.length;
    const out = Float64Array.from(this.bias);
    const { indices, values } = vectorize(text, this.vocabulary, this.model.features);
    for (let j = 0; j < indices.length; j++) {
      const row = indices[j]! * k;
      const v = values[j]!;
      for (let c = 0; c < k; c++) out[c]! += v * this.weights[row + c]!;
    }
    return out;
  }

  /** Softmax probabilities over the seven labels; a text without words is neutral. */
  classify(text: string): EmotionScores {
    if (!tokenize(text).some((t) => WORD_RE.test(t))) return neutralScores();
    return softmaxScores(this.logits(text));
  }
}

/**
 * goemotions-weights.json: next to this module when run from source (vitest, tsx), or back in
 * src-server/ when run from dist/ (tsc does not copy JSON files).
 */
export function defaultWeightsPath(): string {
  const candidates = [
    new URL('./goemotions-weights.json', import.meta.url),
    new URL('../../../../src-server/engines/emotion/goemotions-weights.json', import.meta.url),
  ].map((u) => fileURLToPath(u));
  return candidates.find((p) => fs.existsSync(p)) ?? candidates[0]!;
}

let defaultClassifier: GoEmotionsClassifier | undefined;

/** The classifier over the committed weights, loaded on first use. */
export function getDefaultClassifier(): GoEmotionsClassifier {
  defaultClassifier ??= GoEmotionsClassifier.fromFile(defaultWeightsPath());
  return defaultClassifier;
}

/** Emotion probabilities of an English text with the committed model. */
export function classify(text: string): EmotionScores {
  return getDefaultClassifier().classify(text);
}
