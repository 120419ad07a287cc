// MFCC front end for speaker features: pre-emphasis, 25 ms Hamming frames every 10 ms, 512-point
// FFT power spectrum, 40 triangular mel bands (60-7600 Hz), log, DCT-II. Pure and allocation-free
// per frame; the same numbers as a textbook (HTK-style) front end, without liftering. `fbank()` stops before
// the DCT: the log mel filterbank a neural speaker-embedding model takes (onnx-speaker-embedding.ts).
import { SAMPLE_RATE } from '../audio/ffmpeg.js';

export const FRAME_LENGTH = 400; // 25 ms at 16 kHz
export const FRAME_SHIFT = 160; // 10 ms
export const FRAMES_PER_SECOND = SAMPLE_RATE / FRAME_SHIFT;
const FFT_SIZE = 512;

export interface MfccOptions {
  /** Coefficients kept, c0 included (c0 is the log energy along the mel bands). */
  coefficients: number;
  lowHz: number;
  highHz: number;
  /** Triangular mel bands. */
  bands: number;
}

const DEFAULTS: MfccOptions = { coefficients: 20, lowHz: 60, highHz: 7600, bands: 40 };

export interface MfccFrames {
  /** frames x coefficients, row-major. */
  mfcc: Float32Array;
  /** Log energy (natural log of the mean square, full scale = 0) of each frame. */
  logEnergy: Float32Array;
  frames: number;
  coefficients: number;
}

export class MfccExtractor {
  readonly options: MfccOptions;
  private readonly window = new Float32Array(FRAME_LENGTH);
  private readonly re = new Float64Array(FFT_SIZE);
  private readonly im = new Float64Array(FFT_SIZE);
  private readonly cos = new Float64Array(FFT_SIZE / 2);
  private readonly sin = new Float64Array(FFT_SIZE / 2);
  private readonly bitReverse = new Uint16Array(FFT_SIZE);
  private readonly power = new Float64Array(FFT_SIZE / 2 + 1);
  private readonly logMel: Float64Array;
  /** Per band: first FFT bin and weights. */
  private readonly bands: { first: number; weights: Float64Array }[] = [];
  private readonly dct: Float64Array;

  constructor(options: Partial<MfccOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    const bands = this.options.bands;
    this.logMel = new Float64Array(bands);
    for (let i = 0; i < FRAME_LENGTH; i++)
      this.window[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME_LENGTH - 1));
    for (let i = 0; i < FFT_SIZE / 2; i++) {
      this.cos[i] = Math.cos((2 * Math.PI * i) / FFT_SIZE);
      this.sin[i] = -Math.sin((2 * Math.PI * i) / FFT_SIZE);
    }
    const bits = Math.log2(FFT_SIZE);
    for (let i = 0; i < FFT_SIZE; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.bitReverse[i] = r;
    }
    const mel = (hz: number) => 1127 * Math.log(1 + hz / 700);
    const hz = (m: number) => 700 * (Math.exp(m / 1127) - 1);
    const lo = mel(this.options.lowHz);
    const hi = mel(this.options.highHz);
    const edges = Array.from({ length: bands + 2 }, (_, i) => hz(lo + ((hi - lo) * i) / (bands + 1)));
    const binHz = SAMPLE_RATE / FFT_SIZE;
    for (let b = 0; b < bands; b++) {
      const [l, c, r] = [edges[b]!, edges[b + 1]!, edges[b + 2]!];
      const first = Math.ceil(l / binHz);
      const last = Math.floor(r / binHz);
      const weights = new Float64Array(Math.max(0, last - first + 1));
      for (let k = first; k <= last; k++) {
        const f = k * binHz;
        weights[k - first] = f <= c ? (f - l) / (c - l) : (r - f) / (r - c);
      }
      this.bands.push({ first, weights });
    }
    const n = this.options.coefficients;
    this.dct = new Float64Array(n * bands);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < bands; j++)
        this.dct[i * bands + j] = Math.sqrt(2 / bands) * Math.cos((Math.PI * i * (j + 0.5)) / bands);
    }
  }

  /** Number of whole frames in `samples` samples. */
  static frameCount(samples: number): number {
    return samples < FRAME_LENGTH ? 0 : 1 + Math.floor((samples - FRAME_LENGTH) / FRAME_SHIFT);
  }

  /** MFCCs of every whole frame of `samples` (frame i starts at sample i * 160). */
  compute(samples: Int16Array): MfccFrames {
    const n = this.options.coefficients;
    const bands = this.options.bands;
    const frames = MfccExtractor.frameCount(samples.length);
    const mfcc = new Float32Array(frames * n);
    const logEnergy = new Float32Array(frames);
    const { logMel } = this;
    for (let f = 0; f < frames; f++) {
      logEnergy[f] = this.frameLogMel(samples, f * FRAME_SHIFT);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        const row = i * bands;
        for (let j = 0; j < bands; j++) sum += this.dct[row + j]! * logMel[j]!;
        mfcc[f * n + i] = sum;
      }
    }
    return { mfcc, logEnergy, frames, coefficients: n };
  }

  /** The log mel filterbank of every whole frame (frames x bands, row-major), and each frame's log energy. */
  fbank(samples: Int16Array): { features: Float32Array; logEnergy: Float32Array; frames: number; bands: number } {
    const bands = this.options.bands;
    const frames = MfccExtractor.frameCount(samples.length);
    const features = new Float32Array(frames * bands);
    const logEnergy = new Float32Array(frames);
    for (let f = 0; f < frames; f++) {
      logEnergy[f] = this.frameLogMel(samples, f * FRAME_SHIFT);
      features.set(this.logMel, f * bands);
    }
    return { features, logEnergy, frames, bands };
  }

  /** Fills this.logMel with the frame at `offset`; returns its log energy. */
  private frameLogMel(samples: Int16Array, offset: number): number {
    const { re, im, power, logMel } = this;
    // Remove the frame's DC, pre-emphasize, window.
    let mean = 0;
    for (let i = 0; i < FRAME_LENGTH; i++) mean += samples[offset + i]!;
    mean /= FRAME_LENGTH;
    let energy = 0;
    let prev = samples[offset]! - mean;
    for (let i = 0; i < FFT_SIZE; i++) {
      if (i < FRAME_LENGTH) {
        const x = samples[offset + i]! - mean;
        energy += x * x;
        re[this.bitReverse[i]!] = ((x - 0.97 * prev) / 32768) * this.window[i]!;
        prev = x;
      } else {
        re[this.bitReverse[i]!] = 0;
      }
      im[i] = 0;
    }
    this.fft();
    for (let k = 0; k <= FFT_SIZE / 2; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    for (let b = 0; b < this.bands.length; b++) {
      const { first, weights } = this.bands[b]!;
      let sum = 0;
      for (let k = 0; k < weights.length; k++) sum += weights[k]! * power[first + k]!;
      logMel[b] = Math.log(sum + 1e-10);
    }
    return Math.log(energy / FRAME_LENGTH / 32768 ** 2 + 1e-10);
  }

  /** In-place radix-2 FFT of re/im (input already in bit-reversed order). */
  private fft(): void {
    const { re, im, cos, sin } = this;
    for (let size = 2; size <= FFT_SIZE; size <<= 1) {
      const half = size >> 1;
      const step = FFT_SIZE / size;
      for (let start = 0; start < FFT_SIZE; start += size) {
        for (let k = 0; k < half; k++) {
          const wr = cos[k * step]!;
          const wi = sin[k * step]!;
          const a = start + k;
          const b = a + half;
          const tr = wr * re[b]! - wi * im[b]!;
          const ti = wr * im[b]! + wi * re[b]!;
          re[b] = re[a]! - tr;
          im[b] = im[a]! - ti;
          re[a] = re[a]! + tr;
          im[a] = im[a]! + ti;
        }
      }
    }
  }
}

/** Regression deltas over +-2 frames (HTK formula), per coefficient; edges use clamped frames. */
export function deltas(features: Float32Array, frames: number, dims: number): Float32Array {
  const out = new Float32Array(frames * dims);
  const at = (f: number) => Math.min(frames - 1, Math.max(0, f)) * dims;
  for (let f = 0; f < frames; f++) {
    const p1 = at(f + 1),
      m1 = at(f - 1),
      p2 = at(f + 2),
      m2 = at(f - 2);
    for (let d = 0; d < dims; d++) {
      out[f * dims + d] = (features[p1 + d]! - features[m1 + d]! + 2 * (features[p2 + d]! - features[m2 + d]!)) / 10;
    }
  }
  return out;
}
