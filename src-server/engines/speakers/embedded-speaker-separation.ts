// Embedded speaker separation without a neural model. No npm package ships speaker-embedding ONNX
// weights inside the package (the registry's candidates download their models at install or run
// time, or need a vendor key), so the embeddings are classic signal-processing ones.
//
// 1. Features: MFCC c1..c19 and their deltas on the speech regions (25 ms frames every 10 ms);
//    frames more than 30 dB below the region's loud frames (pauses) are left out. Summed per
//    0.25 s block (count, sums, sums of squares and the full 19 x 19 cross products), which is all
//    the later steps need: ~1.4 KB per block (2 hours of speech: 40 MB); the samples are read one
//    region at a time.
// 2. Embeddings: 4 s windows every 2 s inside each region (a shorter region is one window; 1.5 s
//    windows were dominated by what was said rather than who said it: DER 31% instead of 1-3% on
//    the benchmark's three-speaker conversation, and turn boundaries come from step 4 anyway); per
//    window the mean and standard deviation of the MFCCs (vocal tract shape and its variability,
//    voice quality, channel) and the standard deviation of the deltas (articulation dynamics):
//    57 numbers, standardised over the recording (each dimension to zero mean and unit variance),
//    then unit length.
// 3. Clustering: agglomerative, average linkage, cosine distance; the tree is split from the top,
//    splits that only cut off a little speech (outliers) not counting as speakers (their windows
//    join the nearest real cluster). numSpeakers: exactly that many real clusters. Otherwise the
//    splitting stops when the two halves of the next split are the same speaker by a likelihood
//    test that does not depend on the recording's length: the generalized likelihood ratio per
//    frame of two full-covariance Gaussians over one (bias-corrected), against
//    sameSpeakerDivergence; bounded by [minSpeakers, maxSpeakers]. Above 2,000 windows a regular
//    subset is clustered and the rest go to the nearest cluster centroid.
// 4. Resegmentation: a diagonal Gaussian per speaker over the MFCCs of its blocks, then a Viterbi
//    pass over each region's blocks with a penalty per speaker change (turn boundaries at 0.25 s
//    resolution rather than the windows'), then runs shorter than minTurnSeconds are merged into a
//    neighbour (smoothing of short flips).
import fsp from 'node:fs/promises';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmRange } from '../audio/pcm-file.js';
import type { SpeechSegment } from '../vad/vad.js';
import { averageLinkage, cosineDistanceMatrix, cutTree, l2Normalize, type Merge } from './clustering.js';
import { deltas, FRAME_SHIFT, MfccExtractor } from './mfcc.js';
import { speakerLabel, type SeparateOptions, type SpeakerSeparationEngine, type SpeakerTurn } from './speaker-separation.js';

export interface EmbeddedSeparationOptions {
  windowSeconds: number;
  hopSeconds: number;
  /** Resolution of turn boundaries. Window and hop are rounded to whole blocks. */
  blockSeconds: number;
  /** Windows clustered directly; the rest are assigned to the nearest centroid. */
  maxClusterWindows: number;
  /** Upper bound of the automatic count when the caller gives none. */
  defaultMaxSpeakers: number;
  /**
   * Automatic count: two clusters whose speech one Gaussian explains almost as well as two (the
   * likelihood ratio per frame, in nats, is below this) are one speaker.
   */
  sameSpeakerDivergence: number;
  /** Viterbi log-likelihood penalty per speaker change (nats). */
  switchPenalty: number;
  /** Runs of one speaker shorter than this inside a region are merged into a neighbour. */
  minTurnSeconds: number;
  /** Turns of the same speaker separated by less than this are joined. */
  joinGapSeconds: number;
}

export const DEFAULT_EMBEDDED_SEPARATION_OPTIONS: EmbeddedSeparationOptions = {
  windowSeconds: 4,
  hopSeconds: 2,
  blockSeconds: 0.25,
  maxClusterWindows: 2000,
  defaultMaxSpeakers: 8,
  sameSpeakerDivergence: 0.75,
  switchPenalty: 60,
  minTurnSeconds: 1,
  joinGapSeconds: 0.5,
};

/** MFCC c1..c19 (c0, loudness, says nothing about the speaker). */
const CEPSTRA = 19;
/** Per-frame feature: cepstra then their deltas. */
const DIMS = 2 * CEPSTRA;
/** Frames quieter than the region's loud frames (95th percentile) by more than 30 dB are pauses. */
const PAUSE_BELOW = Math.log(1000);
/** A window needs this many speech frames (0.4 s) to give an embedding. */
const MIN_WINDOW_FRAMES = 40;
const VARIANCE_FLOOR = 1e-3;
/** Consecutive frames are far from independent: statistics count one frame in this many. */
const EFFECTIVE_FRAME_FACTOR = 3;
/** A cluster with less speech than this (frames: 1.5 s) is an outlier, not a speaker. */
const MIN_SPEAKER_FRAMES = 150;
/** How many outlier splits the tree walk may pass over. */
const MAX_OUTLIER_SPLITS = 24;
/** Entries of the upper triangle of a CEPSTRA x CEPSTRA matrix. */
const TRI = (CEPSTRA * (CEPSTRA + 1)) / 2;

/** Sufficient statistics of the frames of each block, in growable flat arrays. */
class BlockStore {
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

interface Window {
  firstBlock: number;
  /** Exclusive. */
  lastBlock: number;
  embedding: Float32Array;
  frames: number;
}

export class EmbeddedSpeakerSeparation implements SpeakerSeparationEngine {
  readonly name = 'embedded-mfcc';
  readonly options: EmbeddedSeparationOptions;
  private readonly mfcc = new MfccExtractor({ coefficients: CEPSTRA + 1 });

  constructor(options: Partial<EmbeddedSeparationOptions> = {}) {
    this.options = { ...DEFAULT_EMBEDDED_SEPARATION_OPTIONS, ...options };
  }

  async separate(pcmPath: string, speech: SpeechSegment[], options: SeparateOptions): Promise<SpeakerTurn[]> {
    const { signal, onProgress } = options;
    signal.throwIfAborted();
    const regions = speech.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
    if (regions.length === 0) return [];
    const blocks = await this.extract(pcmPath, regions, signal, (f) => onProgress?.(0.8 * f));
    signal.throwIfAborted();

    const windows = this.windows(blocks, regions.length);
    const labels = this.cluster(blocks, windows, options);
    onProgress?.(0.9);
    const blockLabels = this.resegment(blocks, windows, labels, options.numSpeakers ?? options.minSpeakers);
    const turns = this.turns(blocks, regions, blockLabels);
    onProgress?.(1);
    return turns;
  }

  /** Step 1: per-block feature statistics of every region. */
  private async extract(pcmPath: string, regions: SpeechSegment[], signal: AbortSignal, progress: (f: number) => void): Promise<BlockStore> {
    const blocks = new BlockStore();
    const framesPerBlock = Math.max(1, Math.round((this.options.blockSeconds * SAMPLE_RATE) / FRAME_SHIFT));
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
        const { mfcc, logEnergy, frames } = this.mfcc.compute(samples);
        // Drop c0: keep c1..c19 per frame.
        const cep = new Float32Array(frames * CEPSTRA);
        for (let f = 0; f < frames; f++) cep.set(mfcc.subarray(f * (CEPSTRA + 1) + 1, (f + 1) * (CEPSTRA + 1)), f * CEPSTRA);
        const delta = deltas(cep, frames, CEPSTRA);
        const sorted = Float32Array.from(logEnergy).sort();
        const loud = sorted.length ? sorted[Math.floor(sorted.length * 0.95)]! : 0;
        const blockCount = Math.max(1, Math.ceil(frames / framesPerBlock));
        const regionEnd = region.start + samples.length / SAMPLE_RATE;
        for (let j = 0; j < blockCount; j++) {
          const start = region.start + (j * framesPerBlock * FRAME_SHIFT) / SAMPLE_RATE;
          const end = j === blockCount - 1 ? Math.max(start, Math.min(region.end, regionEnd)) : region.start + ((j + 1) * framesPerBlock * FRAME_SHIFT) / SAMPLE_RATE;
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
  private windows(blocks: BlockStore, regionCount: number): Window[] {
    const per = Math.max(1, Math.round(this.options.windowSeconds / this.options.blockSeconds));
    const hop = Math.max(1, Math.round(this.options.hopSeconds / this.options.blockSeconds));
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

  /** Step 3: a speaker index per window. */
  private cluster(blocks: BlockStore, windows: Window[], options: SeparateOptions): Int32Array {
    const n = windows.length;
    if (n === 0) return new Int32Array(0);
    const unit = l2Normalize(standardize(windows.map((w) => w.embedding)));
    // Regular subset for the O(n^2) clustering.
    const stride = Math.max(1, Math.ceil(n / this.options.maxClusterWindows));
    const subset = Array.from({ length: Math.ceil(n / stride) }, (_, i) => i * stride);
    const m = subset.length;
    const vectors = subset.map((i) => unit[i]!);
    const merges = averageLinkage(cosineDistanceMatrix(vectors), m);

    const sub = subset.map((i) => windows[i]!);
    let subsetLabels: Int32Array;
    if (options.numSpeakers !== undefined && options.numSpeakers > 0) {
      const k = Math.min(options.numSpeakers, m);
      subsetLabels = this.splitTree(blocks, sub, vectors, merges, k, false);
      // Not enough speech for k real clusters: plain cut, outliers and all, to honour the count.
      if (countLabels(subsetLabels) < k) subsetLabels = cutTree(merges, m, k);
    } else {
      const lo = Math.min(m, Math.max(1, options.minSpeakers ?? 1));
      const hi = Math.min(m, Math.max(lo, options.maxSpeakers ?? this.options.defaultMaxSpeakers));
      subsetLabels = this.splitTree(blocks, sub, vectors, merges, hi, true);
      if (countLabels(subsetLabels) < lo) subsetLabels = this.splitTree(blocks, sub, vectors, merges, lo, false);
      if (countLabels(subsetLabels) < lo) subsetLabels = cutTree(merges, m, lo);
    }
    const k = subsetLabels.reduce((max, l) => Math.max(max, l + 1), 0);
    if (stride === 1) return subsetLabels;

    // Everyone else: nearest centroid.
    const centroids = Array.from({ length: k }, () => new Float32Array(unit[0]!.length));
    subsetLabels.forEach((l, i) => vectors[i]!.forEach((x, d) => (centroids[l]![d]! += x)));
    const unitCentroids = l2Normalize(centroids);
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (i % stride === 0) {
        labels[i] = subsetLabels[i / stride]!;
        continue;
      }
      let best = -Infinity;
      for (let c = 0; c < k; c++) {
        let dot = 0;
        for (let d = 0; d < unit[i]!.length; d++) dot += unit[i]![d]! * unitCentroids[c]![d]!;
        if (dot > best) [best, labels[i]] = [dot, c];
      }
    }
    return labels;
  }

  /**
   * Splits the tree from the top into at most `want` speakers. A split that cuts off less than
   * MIN_SPEAKER_FRAMES of speech is an outlier (a cough, a laugh, one odd window): it does not count
   * and the walk goes on below it. With `test`, the walk stops at the first real split whose two
   * sides are the same speaker (likelihood ratio per frame < sameSpeakerDivergence). Outlier
   * clusters then join the nearest real one (cosine to its centroid). Labels 0..k-1.
   */
  private splitTree(blocks: BlockStore, windows: Window[], vectors: Float32Array[], merges: Merge[], want: number, test: boolean): Int32Array {
    const m = windows.length;
    let labels = cutTree(merges, m, 1);
    let accepted = labels;
    let speakers = 1;
    for (let cut = 1; speakers < want && cut < Math.min(m, want + MAX_OUTLIER_SPLITS); cut++) {
      const finer = cutTree(merges, m, cut + 1);
      // The cluster of `labels` that splits in two in `finer`.
      const sides = new Map<number, Set<number>>();
      finer.forEach((l, i) => sides.set(labels[i]!, (sides.get(labels[i]!) ?? new Set()).add(l)));
      const [a, b] = [...[...sides.values()].find((set) => set.size === 2)!];
      labels = finer;
      const owner = blockOwners(blocks, windows, finer);
      const A = new GaussianStats();
      const B = new GaussianStats();
      for (let i = 0; i < blocks.count; i++) {
        if (owner[i] === a) A.addBlock(blocks, i);
        else if (owner[i] === b) B.addBlock(blocks, i);
      }
      if (Math.min(A.n, B.n) < MIN_SPEAKER_FRAMES) continue;
      if (test && A.divergence(B) < this.options.sameSpeakerDivergence) break;
      speakers++;
      accepted = finer;
    }
    return absorbOutliers(blocks, windows, vectors, accepted);
  }

  /**
   * Step 4: a speaker index per block (-1: no speech frames and no neighbour to copy). `keepAtLeast`:
   * when the Viterbi pass loses speakers below this count, the window labels are kept instead.
   */
  private resegment(blocks: BlockStore, windows: Window[], windowLabels: Int32Array, keepAtLeast: number | undefined): Int32Array {
    const nb = blocks.count;
    const initial = blockOwners(blocks, windows, windowLabels);
    const k = windowLabels.reduce((m, l) => Math.max(m, l + 1), 0);
    if (k === 0) return initial;
    fillGaps(blocks, initial);
    if (k === 1) return initial;

    // Diagonal Gaussians over the cepstra of each speaker's blocks.
    const mean = new Float64Array(k * CEPSTRA);
    const variance = new Float64Array(k * CEPSTRA);
    const count = new Float64Array(k);
    for (let b = 0; b < nb; b++) {
      const l = initial[b]!;
      if (l < 0) continue;
      count[l]! += blocks.n[b]!;
      for (let d = 0; d < CEPSTRA; d++) {
        mean[l * CEPSTRA + d]! += blocks.sum[b * DIMS + d]!;
        variance[l * CEPSTRA + d]! += blocks.sq[b * DIMS + d]!;
      }
    }
    for (let l = 0; l < k; l++) {
      for (let d = 0; d < CEPSTRA; d++) {
        const i = l * CEPSTRA + d;
        const c = Math.max(1, count[l]!);
        mean[i] = mean[i]! / c;
        variance[i] = Math.max(VARIANCE_FLOOR, variance[i]! / c - mean[i]! * mean[i]!);
      }
    }
    const logLik = (b: number, l: number) => {
      const n = blocks.n[b]!;
      if (n === 0) return 0;
      let sum = 0;
      for (let d = 0; d < CEPSTRA; d++) {
        const i = l * CEPSTRA + d;
        const mu = mean[i]!;
        const s1 = blocks.sum[b * DIMS + d]!;
        const s2 = blocks.sq[b * DIMS + d]!;
        sum += (s2 - 2 * mu * s1 + n * mu * mu) / variance[i]! + n * Math.log(variance[i]!);
      }
      return -0.5 * sum;
    };

    // Viterbi per region with a penalty per change of speaker.
    const out = new Int32Array(nb);
    const penalty = this.options.switchPenalty;
    for (let b0 = 0; b0 < nb; ) {
      let b1 = b0;
      while (b1 < nb && blocks.region[b1] === blocks.region[b0]) b1++;
      const len = b1 - b0;
      const back = new Int32Array(len * k);
      let score = Float64Array.from({ length: k }, (_, l) => logLik(b0, l));
      for (let t = 1; t < len; t++) {
        const next = new Float64Array(k);
        let bestPrev = 0;
        for (let l = 1; l < k; l++) if (score[l]! > score[bestPrev]!) bestPrev = l;
        for (let l = 0; l < k; l++) {
          const stay = score[l]!;
          const move = score[bestPrev]! - penalty;
          const from = stay >= move ? l : bestPrev;
          back[t * k + l] = from;
          next[l] = Math.max(stay, move) + logLik(b0 + t, l);
        }
        score = next;
      }
      let l = 0;
      for (let c = 1; c < k; c++) if (score[c]! > score[l]!) l = c;
      for (let t = len - 1; t >= 0; t--) {
        out[b0 + t] = l;
        l = back[t * k + l]!;
      }
      b0 = b1;
    }
    this.smooth(blocks, out, logLik);

    const kept = new Set(out).size;
    const wanted = Math.min(k, keepAtLeast ?? 0);
    return kept < wanted ? initial : out;
  }

  /** Runs shorter than minTurnSeconds inside a region join the neighbour that explains them best. */
  private smooth(blocks: BlockStore, labels: Int32Array, logLik: (b: number, l: number) => number): void {
    const nb = blocks.count;
    for (let b0 = 0; b0 < nb; ) {
      let b1 = b0;
      while (b1 < nb && blocks.region[b1] === blocks.region[b0]) b1++;
      for (;;) {
        // Runs [start, end) of this region; find the shortest one below the minimum.
        const runs: [number, number][] = [];
        for (let b = b0; b < b1; ) {
          let e = b;
          while (e < b1 && labels[e] === labels[b]) e++;
          runs.push([b, e]);
          b = e;
        }
        if (runs.length < 2) break;
        let shortest = -1;
        let shortestSeconds = this.options.minTurnSeconds;
        runs.forEach(([s, e], i) => {
          const seconds = blocks.end[e - 1]! - blocks.start[s]!;
          if (seconds < shortestSeconds) [shortest, shortestSeconds] = [i, seconds];
        });
        if (shortest < 0) break;
        const [s, e] = runs[shortest]!;
        const candidates = [runs[shortest - 1], runs[shortest + 1]].filter((r): r is [number, number] => !!r).map((r) => labels[r[0]]!);
        let best = candidates[0]!;
        let bestScore = -Infinity;
        for (const c of candidates) {
          let score = 0;
          for (let b = s; b < e; b++) score += logLik(b, c);
          if (score > bestScore) [best, bestScore] = [c, score];
        }
        labels.fill(best, s, e);
      }
      b0 = b1;
    }
  }

  /** Step 5: turns from block labels, joined across short gaps, labelled by first appearance. */
  private turns(blocks: BlockStore, regions: SpeechSegment[], labels: Int32Array): SpeakerTurn[] {
    const raw: { start: number; end: number; label: number }[] = [];
    for (let b = 0; b < blocks.count; b++) {
      const label = labels[b]!;
      if (label < 0) continue;
      const region = regions[blocks.region[b]!]!;
      const start = Math.max(region.start, blocks.start[b]!);
      const end = Math.min(region.end, blocks.end[b]!);
      const prev = raw.at(-1);
      if (prev && prev.label === label && start - prev.end <= this.options.joinGapSeconds) prev.end = Math.max(prev.end, end);
      else if (end > start) raw.push({ start, end, label });
    }
    const names = new Map<number, string>();
    return raw.map(({ start, end, label }) => {
      if (!names.has(label)) names.set(label, speakerLabel(names.size));
      return { start: round(start), end: round(end), speaker: names.get(label)! };
    });
  }
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

/** Blocks without a label copy the nearest labelled block of the same region, else of the previous one. */
function fillGaps(blocks: BlockStore, labels: Int32Array): void {
  let last = -1;
  const firstKnown = labels.find((l) => l >= 0) ?? -1;
  for (let b = 0; b < blocks.count; b++) {
    if (labels[b]! >= 0) last = labels[b]!;
    else {
      // Look ahead inside the region first (a region's leading blocks), then behind.
      let ahead = -1;
      for (let c = b + 1; c < blocks.count && blocks.region[c] === blocks.region[b]; c++) {
        if (labels[c]! >= 0) {
          ahead = labels[c]!;
          break;
        }
      }
      const sameRegionBehind = b > 0 && blocks.region[b - 1] === blocks.region[b] && labels[b - 1]! >= 0;
      labels[b] = sameRegionBehind ? labels[b - 1]! : ahead >= 0 ? ahead : last >= 0 ? last : firstKnown;
    }
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** log determinant of the covariance from frame count, sums and upper-triangular cross sums (Cholesky). */
export function logDetCovariance(n: number, sum: Float64Array, cross: Float64Array): number {
  const d = sum.length;
  const a = new Float64Array(d * d);
  for (let i = 0, t = 0; i < d; i++) {
    for (let j = i; j < d; j++, t++) {
      const v = cross[t]! / n - (sum[i]! / n) * (sum[j]! / n);
      a[i * d + j] = a[j * d + i] = v;
    }
  }
  let logDet = 0;
  for (let j = 0; j < d; j++) {
    let diag = a[j * d + j]!;
    for (let k = 0; k < j; k++) diag -= a[j * d + k]! ** 2;
    diag = Math.sqrt(Math.max(diag, VARIANCE_FLOOR));
    a[j * d + j] = diag;
    logDet += 2 * Math.log(diag);
    for (let i = j + 1; i < d; i++) {
      let v = a[i * d + j]!;
      for (let k = 0; k < j; k++) v -= a[i * d + k]! * a[j * d + k]!;
      a[i * d + j] = v / diag;
    }
  }
  return logDet;
}

/** Full-covariance Gaussian statistics of the cepstra of a set of frames. */
class GaussianStats {
  n = 0;
  readonly sum = new Float64Array(CEPSTRA);
  readonly cross = new Float64Array(TRI);
  private cachedLogDet: number | undefined;

  addBlock(blocks: BlockStore, b: number): void {
    this.n += blocks.n[b]!;
    for (let d = 0; d < CEPSTRA; d++) this.sum[d]! += blocks.sum[b * DIMS + d]!;
    for (let t = 0; t < TRI; t++) this.cross[t]! += blocks.cross[b * TRI + t]!;
    this.cachedLogDet = undefined;
  }

  get logDet(): number {
    this.cachedLogDet ??= unbiasedLogDet(this.n, this.sum, this.cross);
    return this.cachedLogDet;
  }

  /**
   * Generalized likelihood ratio of "two speakers" over "one speaker" for these frames and the
   * other's, per frame (nats): how much better two Gaussians explain them than one.
   */
  divergence(other: GaussianStats): number {
    const n = this.n + other.n;
    const sum = this.sum.map((x, d) => x + other.sum[d]!);
    const cross = this.cross.map((x, t) => x + other.cross[t]!);
    return (n * unbiasedLogDet(n, sum, cross) - this.n * this.logDet - other.n * other.logDet) / (2 * n);
  }
}

/** Each block's label: that of the window whose centre is nearest (-1 outside every window). */
function blockOwners(blocks: BlockStore, windows: readonly Window[], labels: ArrayLike<number>): Int32Array {
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

/**
 * log |covariance| corrected for the bias of the sample estimate (E log|S| = log|Sigma| +
 * sum_i psi((n - i) / 2) + d log(2 / n) for n Gaussian frames), so that small clusters do not look
 * tighter than they are. Frames overlap (25 ms every 10 ms) and speech changes slowly: the effective
 * count is n / EFFECTIVE_FRAME_FACTOR.
 */
export function unbiasedLogDet(n: number, sum: Float64Array, cross: Float64Array): number {
  const d = sum.length;
  const effective = Math.max(d + 2, n / EFFECTIVE_FRAME_FACTOR);
  let bias = d * Math.log(2 / effective);
  for (let i = 1; i <= d; i++) bias += digamma((effective - i) / 2);
  return logDetCovariance(n, sum, cross) - bias;
}

/** Digamma for x > 0 (recurrence up to 6, then the asymptotic series). */
export function digamma(x: number): number {
  let result = 0;
  while (x < 6) {
    result -= 1 / x;
    x += 1;
  }
  const f = 1 / (x * x);
  return result + Math.log(x) - 0.5 / x - f * (1 / 12 - f * (1 / 120 - f * (1 / 252 - f * (1 / 240 - f / 132))));
}

function countLabels(labels: Int32Array): number {
  return new Set(labels).size;
}

/**
 * Clusters with less than MIN_SPEAKER_FRAMES of speech join the real cluster whose centroid is
 * nearest (cosine); labels renumbered 0..k-1 in order of first window. Unchanged when no cluster
 * is big enough.
 */
function absorbOutliers(blocks: BlockStore, windows: readonly Window[], vectors: readonly Float32Array[], labels: Int32Array): Int32Array {
  const k = labels.reduce((max, l) => Math.max(max, l + 1), 0);
  const frames = new Float64Array(k);
  const owner = blockOwners(blocks, windows, labels);
  for (let b = 0; b < blocks.count; b++) if (owner[b]! >= 0) frames[owner[b]!]! += blocks.n[b]!;
  const real = Array.from({ length: k }, (_, c) => c).filter((c) => frames[c]! >= MIN_SPEAKER_FRAMES);
  if (real.length === 0 || real.length === k) return renumber(labels);
  const dims = vectors[0]!.length;
  const centroids = l2Normalize(
    real.map((c) => {
      const sum = new Float32Array(dims);
      labels.forEach((l, i) => {
        if (l === c) vectors[i]!.forEach((x, d) => (sum[d]! += x));
      });
      return sum;
    }),
  );
  const out = labels.map((l, i) => {
    if (real.includes(l)) return l;
    let best = real[0]!;
    let bestDot = -Infinity;
    real.forEach((c, j) => {
      let dot = 0;
      for (let d = 0; d < dims; d++) dot += vectors[i]![d]! * centroids[j]![d]!;
      if (dot > bestDot) [bestDot, best] = [dot, c];
    });
    return best;
  });
  return renumber(out);
}

function renumber(labels: Int32Array): Int32Array {
  const names = new Map<number, number>();
  return labels.map((l) => {
    if (!names.has(l)) names.set(l, names.size);
    return names.get(l)!;
  });
}
