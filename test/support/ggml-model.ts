// A tiny whisper.cpp model with random weights, for tests: the real ggml container (magic, hparams,
// Slaney mel filter bank as whisper uses, a byte-level vocabulary, every tensor whisper_model_load
// expects, f16 weights) at toy dimensions, so whisper.cpp loads it and runs the whole pipeline in
// milliseconds. It recognizes nothing: tests assert structure, never words.
// Files are cached in the OS temp dir keyed by their parameters.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  GGML_MAGIC,
  GGML_TYPES,
  HPARAM_ORDER,
  tensorTypes,
  whisperTensorLayout,
  type WhisperHparams,
} from '../../src-server/engines/speech/ggml-file.js';

export interface RandomModelOptions {
  /** Width of encoder and decoder (whisper tiny: 384). */
  state?: number;
  heads?: number;
  audioLayers?: number;
  textLayers?: number;
  /** Multilingual vocabulary (51865 ids, 99 languages) or English-only (51864). */
  multilingual?: boolean;
  /** 1 = f16 weights (as the official files), 0 = all f32. */
  ftype?: 0 | 1;
  seed?: number;
  /**
   * Scale of the decoder's positional embedding (default 2, which makes every position favour a different
   * token: varied text). 0 leaves the next token to the previous ones alone: the decoder falls into a
   * loop, which exercises the repetition guard.
   */
  decoderPositionScale?: number;
  /**
   * The decoder's context in tokens (whisper: 448). whisper.cpp decodes at most half of it per window, so a
   * looping model with a smaller context reaches the end of each of its many decodes sooner.
   */
  textCtx?: number;
}

const CACHE_DIR = path.join(os.tmpdir(), 'kikitori-test-models');
const CACHE_VERSION = 2;

/** Returns the path of a cached random model with these options, writing it on first use. */
export async function randomWhisperModel(options: RandomModelOptions = {}): Promise<string> {
  const hash = createHash('sha256')
    .update(JSON.stringify([CACHE_VERSION, options]))
    .digest('hex')
    .slice(0, 16);
  const file = path.join(CACHE_DIR, `ggml-random-${hash}.bin`);
  if (fs.existsSync(file)) return file;
  await fsp.mkdir(CACHE_DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeRandomWhisperModel(tmp, options);
    await fsp.rename(tmp, file);
  } finally {
    await fsp.rm(tmp, { force: true });
  }
  return file;
}

export async function writeRandomWhisperModel(file: string, options: RandomModelOptions = {}): Promise<void> {
  const state = options.state ?? 64;
  const heads = options.heads ?? 4;
  const multilingual = options.multilingual ?? true;
  const h: WhisperHparams = {
    nVocab: multilingual ? 51865 : 51864,
    nAudioCtx: 1500, // 30 s of 20 ms frames: whisper pads every window to this
    nAudioState: state,
    nAudioHead: heads,
    nAudioLayer: options.audioLayers ?? 2,
    nTextCtx: options.textCtx ?? 448,
    nTextState: state,
    nTextHead: heads,
    // Not 2: whisper.cpp takes a 2-layer decoder for a distil-whisper model and turns timestamps off.
    nTextLayer: options.textLayers ?? 1,
    nMels: 80,
    ftype: options.ftype ?? 1,
  };
  const random = gaussian(options.seed ?? 1);
  const parts: Buffer[] = [];
  const int32s = (...values: number[]) => {
    const b = Buffer.alloc(4 * values.length);
    values.forEach((v, i) => b.writeInt32LE(v, 4 * i));
    parts.push(b);
  };

  int32s(GGML_MAGIC | 0);
  int32s(...HPARAM_ORDER.map((k) => h[k]));

  const nFft = 201;
  int32s(h.nMels, nFft);
  parts.push(Buffer.from(melFilters(h.nMels, 400, 16000).buffer));

  // Text tokens: the 256 single bytes (as in GPT-2's byte-level BPE), then made-up words, some with
  // a leading space (word starts) and some without (word continuations). Special tokens are added by
  // whisper.cpp itself ("extra tokens").
  const nTokens = multilingual ? 50257 : 50256;
  int32s(nTokens);
  const syllables = ['ka', 'ki', 'to', 'ri', 'su', 'mo', 'na', 'ne', 'ha', 'yo', 'mi', 'ru', 'se', 'te', 'no', 'a'];
  for (let id = 0; id < nTokens; id++) {
    let bytes: Buffer;
    if (id < 256) {
      bytes = Buffer.from([id]);
    } else {
      let n = id - 256;
      let word = '';
      do {
        word += syllables[n % 16];
        n = Math.floor(n / 16);
      } while (n > 0);
      bytes = Buffer.from(id % 3 === 0 ? word : ` ${word}`, 'utf8');
    }
    int32s(bytes.length);
    parts.push(bytes);
  }

  const types = tensorTypes(h.ftype)!;
  for (const spec of whisperTensorLayout(h)) {
    const name = Buffer.from(spec.name, 'latin1');
    const type = types[spec.role];
    int32s(spec.ne.length, name.length, type, ...spec.ne);
    parts.push(name);
    const count = spec.ne.reduce((a, b) => a * b, 1);
    // Layer norms at 1, biases at 0, matrices small and random. The decoder's positional embedding
    // outweighs the token embedding, so each position favours a different token: greedy decoding then
    // yields varied text that passes whisper's entropy check at the first temperature (a repetitive
    // output would be decoded again at 5 higher temperatures, 5 candidates each: 20x slower).
    const isNormWeight = /(^|[._])ln(_post)?\.weight$/.test(spec.name);
    const scale =
      spec.name === 'decoder.positional_embedding'
        ? (options.decoderPositionScale ?? 2)
        : spec.name.includes('embedding')
          ? 0.5
          : 0.08;
    const value = isNormWeight ? () => 1 : spec.name.endsWith('.bias') ? () => 0 : () => random() * scale;
    if (GGML_TYPES[type]!.name === 'f32') {
      const data = new Float32Array(count);
      for (let i = 0; i < count; i++) data[i] = value();
      parts.push(Buffer.from(data.buffer));
    } else {
      const data = new Uint16Array(count);
      for (let i = 0; i < count; i++) data[i] = toHalf(value());
      parts.push(Buffer.from(data.buffer));
    }
  }
  await fsp.writeFile(file, Buffer.concat(parts));
}

/** librosa.filters.mel(sr, n_fft, n_mels) with Slaney scale and norm, as whisper's mel_filters.npz. */
export function melFilters(nMels: number, nFft: number, sampleRate: number): Float32Array {
  const fSp = 200 / 3;
  const minLogHz = 1000;
  const minLogMel = minLogHz / fSp;
  const logStep = Math.log(6.4) / 27;
  const hzToMel = (f: number) => (f < minLogHz ? f / fSp : minLogMel + Math.log(f / minLogHz) / logStep);
  const melToHz = (m: number) => (m < minLogMel ? m * fSp : minLogHz * Math.exp(logStep * (m - minLogMel)));
  const bins = nFft / 2 + 1;
  const fftFreqs = Array.from({ length: bins }, (_, i) => (i * sampleRate) / nFft);
  const maxMel = hzToMel(sampleRate / 2);
  const melF = Array.from({ length: nMels + 2 }, (_, i) => melToHz((i * maxMel) / (nMels + 1)));
  const out = new Float32Array(nMels * bins);
  for (let m = 0; m < nMels; m++) {
    const enorm = 2 / (melF[m + 2]! - melF[m]!);
    for (let k = 0; k < bins; k++) {
      const lower = (fftFreqs[k]! - melF[m]!) / (melF[m + 1]! - melF[m]!);
      const upper = (melF[m + 2]! - fftFreqs[k]!) / (melF[m + 2]! - melF[m + 1]!);
      out[m * bins + k] = Math.max(0, Math.min(lower, upper)) * enorm;
    }
  }
  return out;
}

/** Standard normal samples from a seeded xorshift (Box-Muller). */
function gaussian(seed: number): () => number {
  let x = (seed * 0x9e3779b9) >>> 0 || 1;
  const uniform = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return (x + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 half precision bits of a (small, finite) number, rounded to nearest. */
export function toHalf(value: number): number {
  f32[0] = value;
  const bits = u32[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = bits & 0x7fffff;
  if (exponent <= 0) {
    if (exponent < -10) return sign;
    const m = (mantissa | 0x800000) >> (1 - exponent);
    return sign | ((m + 0x1000) >> 13);
  }
  if (exponent >= 31) return sign | 0x7c00;
  return sign | ((exponent << 10) + ((mantissa + 0x1000) >> 13));
}
