// A speaker embedding from a neural ONNX model (decision 0097): the log mel filterbank of the speech frames
// (mfcc.ts's front end stopped before its DCT: 25 ms Hamming frames every 10 ms, pre-emphasis 0.97, the
// model's number of mel bins from 20 Hz to 8 kHz), normalised as the model expects, through onnxruntime,
// then scaled to unit length so that two embeddings compare by their dot product (cosine).
//
// Pauses are left out as for the MFCC prints (frames 30 dB under the loud ones). Long speech is cut into
// pieces of at most 30 s, embedded one at a time, and the embeddings averaged (weighted by frames): the
// network's memory grows with its input, and a voice does not change from one half-minute to the next.
import fsp from 'node:fs/promises';
import { EngineError } from '../../domain/engine-error.js';
import type { TimeRange } from '../../domain/voice-prints.js';
import type { SpeakerEmbeddingSpec } from '../../models/catalogue.js';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmRange } from '../audio/pcm-file.js';
import { FRAMES_PER_SECOND, MfccExtractor } from './mfcc.js';

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

/** Frames quieter than the loud frames (95th percentile) by more than 30 dB are pauses (as speaker-features.ts). */
const PAUSE_BELOW = Math.log(1000);
/** 30 s of frames per inference. */
const MAX_FRAMES = 3000;
/** Fewer speech frames than this (0.5 s) give no embedding. */
const MIN_FRAMES = 50;

export interface SpeechEmbedding {
  /** Unit length; empty when there was too little speech. */
  embedding: Float32Array;
  /** Seconds of speech (pauses left out) it was computed from. */
  speechSeconds: number;
}

export class OnnxSpeakerEmbedding {
  private readonly fbank: MfccExtractor;

  private constructor(
    private readonly ort: Ort,
    private readonly session: Session,
    readonly spec: SpeakerEmbeddingSpec,
  ) {
    this.fbank = new MfccExtractor({ coefficients: 1, bands: spec.melBins, lowHz: 20, highHz: SAMPLE_RATE / 2 });
  }

  /** Loads the model; an 'unavailable' EngineError when onnxruntime or the file cannot be loaded. */
  static async load(file: string, spec: SpeakerEmbeddingSpec): Promise<OnnxSpeakerEmbedding> {
    const unavailable = (why: string, cause: unknown) =>
      new EngineError(
        'unavailable',
        'The speaker model installed on the server cannot be loaded. Ask an administrator to check it (kikitori-server models verify).',
        { detail: why, cause },
      );
    let ort: Ort;
    try {
      const m = await import('onnxruntime-node');
      ort = (m as { default?: Ort }).default ?? m;
    } catch (error) {
      throw unavailable(`onnxruntime-node cannot be loaded: ${(error as Error).message}`, error);
    }
    try {
      const session = await ort.InferenceSession.create(file, {
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
      });
      for (const [names, name] of [
        [session.inputNames, spec.input],
        [session.outputNames, spec.output],
      ] as const)
        if (!names.includes(name)) throw new Error(`the model has no tensor "${name}" (it has ${names.join(', ')})`);
      return new OnnxSpeakerEmbedding(ort, session, spec);
    } catch (error) {
      throw unavailable(`onnxruntime could not load ${file}: ${(error as Error).message}`, error);
    }
  }

  /** The embedding of the speech inside `ranges` of a 16 kHz mono s16le PCM file. */
  async embedPcm(pcmPath: string, ranges: readonly TimeRange[], signal: AbortSignal): Promise<SpeechEmbedding> {
    const bins = this.spec.melBins;
    const kept: Float32Array[] = [];
    const totalSamples = (await fsp.stat(pcmPath)).size >> 1;
    const handle = await fsp.open(pcmPath, 'r');
    try {
      for (const range of ranges) {
        signal.throwIfAborted();
        const first = Math.max(0, Math.floor(range.start * SAMPLE_RATE));
        const last = Math.min(totalSamples, Math.ceil(range.end * SAMPLE_RATE));
        if (last <= first) continue;
        const { features, logEnergy, frames } = this.fbank.fbank(await readPcmRange(handle, first, last));
        const sorted = Float32Array.from(logEnergy).sort();
        const loud = sorted.length ? sorted[Math.floor(sorted.length * 0.95)]! : 0;
        for (let f = 0; f < frames; f++)
          if (logEnergy[f]! >= loud - PAUSE_BELOW) kept.push(features.subarray(f * bins, (f + 1) * bins));
      }
    } finally {
      await handle.close();
    }
    const speechSeconds = kept.length / FRAMES_PER_SECOND;
    if (kept.length < MIN_FRAMES) return { embedding: new Float32Array(0), speechSeconds };
    const pieces = Math.ceil(kept.length / MAX_FRAMES);
    const sum = new Float64Array(this.spec.dimensions);
    for (let p = 0; p < pieces; p++) {
      signal.throwIfAborted();
      const from = Math.floor((p * kept.length) / pieces);
      const to = Math.floor(((p + 1) * kept.length) / pieces);
      const features = new Float32Array((to - from) * bins);
      for (let f = from; f < to; f++) features.set(kept[f]!, (f - from) * bins);
      const e = await this.embed(features, to - from);
      for (let d = 0; d < e.length; d++) sum[d]! += e[d]! * (to - from);
    }
    return { embedding: unit(Float32Array.from(sum)), speechSeconds };
  }

  /** The unit-length embedding of `frames` x melBins log mel features (normalised here as the model expects). */
  async embed(features: Float32Array, frames: number): Promise<Float32Array> {
    const bins = this.spec.melBins;
    const input = Float32Array.from(features);
    if (this.spec.normalization === 'utterance-mean') {
      for (let b = 0; b < bins; b++) {
        let mean = 0;
        for (let f = 0; f < frames; f++) mean += input[f * bins + b]!;
        mean /= frames;
        for (let f = 0; f < frames; f++) input[f * bins + b]! -= mean;
      }
    }
    const tensor = new this.ort.Tensor('float32', input, [1, frames, bins]);
    let output: Float32Array;
    try {
      const result = await this.session.run({ [this.spec.input]: tensor });
      output = result[this.spec.output]!.data as Float32Array;
    } catch (error) {
      throw new EngineError('transient', 'The speaker model failed on this recording. Try again.', {
        detail: `onnxruntime: ${(error as Error).message}`,
        cause: error,
      });
    }
    if (output.length !== this.spec.dimensions)
      throw new EngineError(
        'unavailable',
        'The speaker model installed on the server does not fit its catalogue entry.',
        {
          detail: `output "${this.spec.output}" has ${output.length} values, the catalogue says ${this.spec.dimensions}`,
        },
      );
    return unit(Float32Array.from(output));
  }
}

/** `v` scaled to length 1 (a zero vector stays zero). */
export function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  return norm > 0 ? v.map((x) => x / norm) : v;
}

/** Cosine similarity of two unit vectors. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}
