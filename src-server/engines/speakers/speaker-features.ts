// Speaker features (steps 1 and 2 of the embedded speaker separation): MFCC statistics per 0.25 s block
// of speech, and window embeddings built from them. Pauses are left out of the statistics.
import fsp from 'node:fs/promises';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmRange } from '../audio/pcm-file.js';
import type { SpeechSegment } from '../vad/vad.js';
import { deltas, FRAME_SHIFT, type MfccExtractor } from './mfcc.js';

/** MFCC c1..c19 (c0, loudness, says nothing about the speaker). */
export const CEPSTRA = 19;
/** Per-frame feature: cepstra then their deltas. */
export const DIMS = 2 * CEPSTRA;
/** Frames quieter than the region's loud frames (95th percentile) by more than 30 dB are pauses. */
const PAUSE_BELOW = Math.log(1000);
/** A window needs this many speech frames (0.4 s) to give an embedding. */
const MIN_WINDOW_FRAMES = 40;
export const VARIANCE_FLOOR = 1e-3;
/** Entries of the upper triangle of a CEPSTRA x CEPSTRA matrix. */
export const TRI = (CEPSTRA * (CEPSTRA + 1)) / 2;

export interface WindowOptions {
  windowSeconds: number;
  hopSeconds: number;
  /** Resolution of turn boundaries. Window and hop are rounded to whole blocks. */
  blockSeconds: number;
}

/** Sufficient statistics of the frames of each block, in growable flat arrays. */
export class BlockStore {
  count = 0;
  private capacity = 1024;
  n = new Float64Array(this.capacity);
  sum = new Float64Array(this.capacity * DIMS);
  sq = new Float64Array(this.capacity * DIMS);
  /** Upper triangle of the sum of x x^T over the cepstra (full-covariance statistics). */
  cross = new Float32Array(this.capacity * TRI);
  start = new Float64Array(this.capacity);
  end = new Float64Array(this.capacity);
  region = new Int32Array(this.capacity);

  add(region: number, start: number, end: number): number {
    if (this.count === this.capacity) this.grow();
    const b = this.count++;
    this.region[b] = region;
    this.start[b] = start;
    this.end[b] = end;
    return b;
  }

  private grow(): void {
    this.capacity *= 2;
    const more = <T extends Float64Array | Int32Array>(a: T, per = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(this.capacity * per);
      b.set(a);
      return b;
    };
    this.n = more(this.n);
    this.sum = more(this.sum, DIMS);
    this.sq = more(this.sq, DIMS);
    const cross = new Float32Array(this.capacity * TRI);
    cross.set(this.cross);
    this.cross = cross;
    this.start = more(this.start);
    this.end = more(this.end);
    this.region = more(this.region);
  }
}

export interface Window {
  firstBlock: number;
  /** Exclusive. */
  lastBlock: number;
  embedding: Float32Array;
  frames: number;
}

/** Step 1: per-block feature statistics of every region, read one region at a time. */
export async function extractBlocks(
  mfccExtractor: MfccExtractor,
  pcmPath: string,
  regions: SpeechSegment[],
  blockSeconds: number,
  signal: AbortSignal,
  progress: (f: number) => void,
): Promise<BlockStore> {
  const blocks = new BlockStore();
  const framesPerBlock = Math.max(1, Math.round((blockSeconds * SAMPLE_RATE) / FRAME_SHIFT));
  const totalSamples = (await fsp.stat(pcmPath)).size >> 1;
  const total = regions.reduce((s, r) => s + (r.end - r.start), 0);
  let done = 0;
  const handle = await fsp.open(pcmPath, 'r');
  try {
    for (const [r, region] of regions.entries()) {
      signal.throwIfAborted();
      const first = Math.max(0, Math.floor(region.start * SAMPLE_RATE));
      const last = Math.min(totalSamples, Math.ceil(region.end * SAMPLE_RATE));
      const samples = await readPcmRange(handle, first, last);
      const { mfcc, logEnergy, frames } = mfccExtractor.compute(samples);
      // Drop c0: keep c1..c19 per frame.
      const cep = new Float32Array(frames * CEPSTRA);
      for (let f = 0; f < frames; f++)
        cep.set(mfcc.subarray(f * (CEPSTRA + 1) + 1, (f + 1) * (CEPSTRA + 1)), f * CEPSTRA);
      const delta = deltas(cep, frames, CEPSTRA);
      const sorted = Float32Array.from(logEnergy).sort();
      const loud = sorted.length ? sorted[Math.floor(sorted.length * 0.95)]! : 0;
      const blockCount = Math.max(1, Math.ceil(frames / framesPerBlock));
      const regionEnd = region.start + samples.length / SAMPLE_RATE;
      for (let j = 0; j < blockCount; j++) {
        const start = region.start + (j * framesPerBlock * FRAME_SHIFT) / SAMPLE_RATE;
        const end =
          j === blockCount - 1
            ? Math.max(start, Math.min(region.end, regionEnd))
            : region.start + ((j + 1) * framesPerBlock * FRAME_SHIFT) / SAMPLE_RATE;
        const b = blocks.add(r, start, end);
        for (let f = j * framesPerBlock; f < Math.min(frames, (j + 1) * framesPerBlock); f++) {
          if (logEnergy[f]! < loud - PAUSE_BELOW) continue;
          blocks.n[b]!++;
          for (let d = 0; d < DIMS; d++) {
            const x = d < CEPSTRA ? cep[f * CEPSTRA + d]! : delta[f * CEPSTRA + d - CEPSTRA]!;
            blocks.sum[b * DIMS + d]! += x;
            blocks.sq[b * DIMS + d]! += x * x;
          }
          for (let i = 0, t = b * TRI; i < CEPSTRA; i++) {
            const xi = cep[f * CEPSTRA + i]!;
            for (let c = i; c < CEPSTRA; c++) blocks.cross[t++]! += xi * cep[f * CEPSTRA + c]!;
          }
        }
      }
      done += region.end - region.start;
      progress(total > 0 ? done / total : 1);
      // Let the event loop breathe between regions (HTTP requests on the same thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    await handle.close();
  }
  return blocks;
}

/** Step 2: window embeddings inside each region. */
export function windowEmbeddings(blocks: BlockStore, regionCount: number, options: WindowOptions): Window[] {
  const per = Math.max(1, Math.round(options.windowSeconds / options.blockSeconds));
  const hop = Math.max(1, Math.round(options.hopSeconds / options.blockSeconds));
  const windows: Window[] = [];
  let b = 0;
  for (let r = 0; r < regionCount; r++) {
    const first = b;
    while (b < blocks.count && blocks.region[b] === r) b++;
    const last = b;
    if (last === first) continue;
    const starts: number[] = [];
    if (last - first <= per) starts.push(first);
    else {
      for (let s = first; s + per <= last; s += hop) starts.push(s);
      if (starts.at(-1)! + per < last) starts.push(last - per); // cover the region's end
    }
    for (const s of starts) {
      const e = Math.min(last, s + per);
      const stats = sumBlocks(blocks, s, e);
      if (stats.n < MIN_WINDOW_FRAMES) continue;
      const emb = new Float32Array(3 * CEPSTRA);
      for (let d = 0; d < CEPSTRA; d++) {
        const mean = stats.sum[d]! / stats.n;
        emb[d] = mean;
        emb[CEPSTRA + d] = Math.sqrt(Math.max(0, stats.sq[d]! / stats.n - mean * mean));
        const dm = stats.sum[CEPSTRA + d]! / stats.n;
        emb[2 * CEPSTRA + d] = Math.sqrt(Math.max(0, stats.sq[CEPSTRA + d]! / stats.n - dm * dm));
      }
      windows.push({ firstBlock: s, lastBlock: e, embedding: emb, frames: stats.n });
    }
  }
  return windows;
}

function sumBlocks(blocks: BlockStore, from: number, to: number): { n: number; sum: Float64Array; sq: Float64Array } {
  const sum = new Float64Array(DIMS);
  const sq = new Float64Array(DIMS);
  let n = 0;
  for (let b = from; b < to; b++) {
    n += blocks.n[b]!;
    for (let d = 0; d < DIMS; d++) {
      sum[d]! += blocks.sum[b * DIMS + d]!;
      sq[d]! += blocks.sq[b * DIMS + d]!;
    }
  }
  return { n, sum, sq };
}

/** Each dimension to zero mean and unit variance over the recording. */
export function standardize(vectors: Float32Array[]): Float32Array[] {
  if (vectors.length === 0) return [];
  const dims = vectors[0]!.length;
  const mean = new Float64Array(dims);
  const sq = new Float64Array(dims);
  for (const v of vectors) v.forEach((x, d) => ((mean[d]! += x), (sq[d]! += x * x)));
  const std = new Float64Array(dims);
  for (let d = 0; d < dims; d++) {
    mean[d] = mean[d]! / vectors.length;
    std[d] = Math.sqrt(Math.max(1e-12, sq[d]! / vectors.length - mean[d]! * mean[d]!));
  }
  return vectors.map((v) => v.map((x, d) => (x - mean[d]!) / std[d]!));
}

/** Each block's label: that of the window whose centre is nearest (-1 outside every window). */
export function blockOwners(blocks: BlockStore, windows: readonly Window[], labels: ArrayLike<number>): Int32Array {
  const owner = new Int32Array(blocks.count).fill(-1);
  const distance = new Float64Array(blocks.count).fill(Infinity);
  for (let i = 0; i < windows.length; i++) {
    const w = windows[i]!;
    const centre = (w.firstBlock + w.lastBlock - 1) / 2;
    for (let b = w.firstBlock; b < w.lastBlock; b++) {
      const d = Math.abs(b - centre);
      if (d < distance[b]!) [distance[b], owner[b]] = [d, labels[i]!];
    }
  }
  return owner;
}
