// Resegmentation (step 4 of the embedded speaker separation): turn boundaries at block resolution
// rather than the windows'. A diagonal Gaussian per speaker over the MFCCs of its blocks, a Viterbi
// pass over each region's blocks with a penalty per speaker change, then runs shorter than
// minTurnSeconds merged into the neighbour that explains them best.
import { blockOwners, CEPSTRA, DIMS, VARIANCE_FLOOR, type BlockStore, type Window } from './speaker-features.js';

export interface ResegmentationOptions {
  /** Viterbi log-likelihood penalty per speaker change (nats). */
  switchPenalty: number;
  /** Runs of one speaker shorter than this inside a region are merged into a neighbour. */
  minTurnSeconds: number;
  /**
   * Viterbi passes: each one after the first re-estimates the speakers' Gaussians from the previous
   * pass's labels (block-precise) rather than the windows' (4 s wide), and runs again.
   */
  resegmentationPasses: number;
}

/**
 * Step 4: a speaker index per block (-1: no speech frames and no neighbour to copy). `keepAtLeast`:
 * when the Viterbi pass loses speakers below this count, the window labels are kept instead.
 */
export function resegment(
  blocks: BlockStore,
  windows: Window[],
  windowLabels: Int32Array,
  keepAtLeast: number | undefined,
  options: ResegmentationOptions,
): Int32Array {
  const initial = blockOwners(blocks, windows, windowLabels);
  const k = windowLabels.reduce((m, l) => Math.max(m, l + 1), 0);
  if (k === 0) return initial;
  fillGaps(blocks, initial);
  return resegmentBlocks(blocks, initial, keepAtLeast, options);
}

/** Step 4 from block labels (0..k-1, every block labelled): the Viterbi passes and smoothing. */
export function resegmentBlocks(
  blocks: BlockStore,
  initial: Int32Array,
  keepAtLeast: number | undefined,
  options: ResegmentationOptions,
): Int32Array {
  const k = initial.reduce((m, l) => Math.max(m, l + 1), 0);
  if (k <= 1) return initial;

  let current = initial;
  for (let pass = 0; pass < Math.max(1, options.resegmentationPasses); pass++) {
    const next = viterbiPass(blocks, current, k, options);
    const changed = next.some((l, b) => l !== current[b]);
    current = next;
    if (!changed) break;
  }
  const kept = new Set(current).size;
  const wanted = Math.min(k, keepAtLeast ?? 0);
  return kept < wanted ? initial : current;
}

/** One pass: Gaussians from `labels`, then Viterbi and smoothing. A speaker that loses every block stays lost. */
function viterbiPass(blocks: BlockStore, labels: Int32Array, k: number, options: ResegmentationOptions): Int32Array {
  const nb = blocks.count;
  const initial = labels;
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
      variance[i] = Math.max(VARIANCE_FLOOR, variance[i]! / c - mean[i] * mean[i]);
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
  const penalty = options.switchPenalty;
  for (let b0 = 0; b0 < nb;) {
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
  smooth(blocks, out, logLik, options.minTurnSeconds);
  return out;
}

/** Runs shorter than minTurnSeconds inside a region join the neighbour that explains them best. */
function smooth(
  blocks: BlockStore,
  labels: Int32Array,
  logLik: (b: number, l: number) => number,
  minTurnSeconds: number,
): void {
  const nb = blocks.count;
  for (let b0 = 0; b0 < nb;) {
    let b1 = b0;
    while (b1 < nb && blocks.region[b1] === blocks.region[b0]) b1++;
    for (;;) {
      // Runs [start, end) of this region; find the shortest one below the minimum.
      const runs: [number, number][] = [];
      for (let b = b0; b < b1;) {
        let e = b;
        while (e < b1 && labels[e] === labels[b]) e++;
        runs.push([b, e]);
        b = e;
      }
      if (runs.length < 2) break;
      let shortest = -1;
      let shortestSeconds = minTurnSeconds;
      runs.forEach(([s, e], i) => {
        const seconds = blocks.end[e - 1]! - blocks.start[s]!;
        if (seconds < shortestSeconds) [shortest, shortestSeconds] = [i, seconds];
      });
      if (shortest < 0) break;
      const [s, e] = runs[shortest]!;
      const candidates = [runs[shortest - 1], runs[shortest + 1]]
        .filter((r): r is [number, number] => !!r)
        .map((r) => labels[r[0]]!);
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
