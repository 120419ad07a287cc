// Clustering for the speaker separation (step 3). First the general part: agglomerative clustering
// with average linkage (UPGMA) over cosine distances, by the nearest-neighbour-chain algorithm:
// O(n^2) time and one n x n Float32 matrix (n = 2000: 16 MB). Then the speakers: the tree is split
// from the top, a likelihood test on the speech of both halves deciding when two clusters are one
// speaker, and outliers joining the nearest real speaker. Pure: no I/O.
import type { SeparateOptions } from './speaker-separation.js';
import {
  blockOwners,
  CEPSTRA,
  DIMS,
  standardize,
  TRI,
  VARIANCE_FLOOR,
  type BlockStore,
  type Window,
} from './speaker-features.js';

export interface Merge {
  /** Cluster ids: 0..n-1 are the points; merge i creates cluster n + i. */
  a: number;
  b: number;
  distance: number;
}

/** Rows of `vectors` scaled to unit length (zero rows stay zero). */
export function l2Normalize(vectors: Float32Array[]): Float32Array[] {
  return vectors.map((v) => {
    let norm = 0;
    for (const x of v) norm += x * x;
    norm = Math.sqrt(norm);
    return norm > 0 ? v.map((x) => x / norm) : v.slice();
  });
}

/** Cosine distance (1 - cosine similarity) between unit vectors. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}

/** Pairwise cosine distances of unit vectors, as a symmetric n x n matrix. */
export function cosineDistanceMatrix(unit: Float32Array[]): Float32Array {
  const n = unit.length;
  const d = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) d[i * n + j] = d[j * n + i] = cosineDistance(unit[i]!, unit[j]!);
  }
  return d;
}

/**
 * Average-linkage merges of n points given their distance matrix (consumed: it is overwritten),
 * sorted by increasing distance (average linkage is reducible, so the order is a valid dendrogram).
 */
export function averageLinkage(distances: Float32Array, n: number): Merge[] {
  const d = distances;
  const size = new Float64Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  /** Row index -> current cluster id (rows are reused: the merged cluster lives in row b). */
  const id = Int32Array.from({ length: n }, (_, i) => i);
  const merges: Merge[] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) {
      let first = 0;
      while (!active[first]) first++;
      chain.push(first);
    }
    const a = chain[chain.length - 1]!;
    const previous = chain.length > 1 ? chain[chain.length - 2]! : -1;
    // Nearest active neighbour of a; ties prefer the previous chain element (guarantees progress).
    let best = previous;
    let bestDistance = previous >= 0 ? d[a * n + previous]! : Infinity;
    for (let j = 0; j < n; j++) {
      if (j === a || !active[j]) continue;
      const dj = d[a * n + j]!;
      if (dj < bestDistance) [best, bestDistance] = [j, dj];
    }
    if (best !== previous) {
      chain.push(best);
      continue;
    }
    // a and previous are reciprocal nearest neighbours: merge them into row `previous`.
    chain.length -= 2;
    const [keep, drop] = [previous, a];
    merges.push({ a: id[keep]!, b: id[drop]!, distance: bestDistance });
    const sk = size[keep]!;
    const sd = size[drop]!;
    for (let j = 0; j < n; j++) {
      if (!active[j] || j === keep || j === drop) continue;
      const v = (sk * d[keep * n + j]! + sd * d[drop * n + j]!) / (sk + sd);
      d[keep * n + j] = d[j * n + keep] = v;
    }
    size[keep] = sk + sd;
    active[drop] = 0;
    id[keep] = n + merges.length - 1;
    remaining--;
  }
  // Renumber so that the merges can be replayed in distance order. A merge's height is at least
  // its children's (exactly so for average linkage; enforced against rounding), ties by creation.
  const height = new Float64Array(merges.length);
  const heightOf = (c: number) => (c < n ? 0 : height[c - n]!);
  merges.forEach((m, i) => (height[i] = Math.max(m.distance, heightOf(m.a), heightOf(m.b))));
  const order = merges.map((m, i) => ({ m, i })).sort((x, y) => height[x.i]! - height[y.i]! || x.i - y.i);
  const renamed = new Map<number, number>();
  order.forEach(({ i }, rank) => renamed.set(n + i, n + rank));
  const rename = (c: number) => (c < n ? c : renamed.get(c)!);
  return order.map(({ m }) => ({ a: rename(m.a), b: rename(m.b), distance: m.distance }));
}

/**
 * Labels 0..k-1 of the n points when the dendrogram is cut into k clusters (the first n - k
 * merges applied). Labels are numbered by first point.
 */
export function cutTree(merges: readonly Merge[], n: number, k: number): Int32Array {
  const parent = Int32Array.from({ length: 2 * n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]!]!;
    return x;
  };
  const steps = Math.max(0, Math.min(merges.length, n - Math.max(1, k)));
  for (let i = 0; i < steps; i++) {
    const m = merges[i]!;
    parent[find(m.a)] = n + i;
    parent[find(m.b)] = n + i;
  }
  const labels = new Int32Array(n);
  const names = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const root = find(i);
    if (!names.has(root)) names.set(root, names.size);
    labels[i] = names.get(root)!;
  }
  return labels;
}

// ---------------------------------------------------------------------------------------------
// Speakers from window embeddings

export interface SpeakerClusteringOptions {
  /** Windows clustered directly; the rest are assigned to the nearest centroid. */
  maxClusterWindows: number;
  /** Upper bound of the automatic count when the caller gives none. */
  defaultMaxSpeakers: number;
  /**
   * Automatic count: two clusters whose speech one Gaussian explains almost as well as two (the
   * likelihood ratio per frame, in nats, is below this) are one speaker.
   */
  sameSpeakerDivergence: number;
  /**
   * The same test after resegmentation (mergeSameSpeakers), stricter: measured between whole speakers, two
   * real men of this benchmark came at 0.73 and one synthetic voice with itself across two 2 s turns at 0.54.
   */
  mergeDivergence: number;
  /**
   * Over-clustering (0: off): once the count is known (given, or found by steps 3-4b), the windows' tree is cut
   * into at least this many clusters and they are merged down to the count after resegmentation (step 4c),
   * where each cluster's speech is block-precise rather than a set of 4 s windows straddling turns.
   */
  overClusters: number;
}

/** Consecutive frames are far from independent: statistics count one frame in this many. */
const EFFECTIVE_FRAME_FACTOR = 3;
/** A cluster with less speech than this (frames: 1.5 s) is an outlier, not a speaker. */
const MIN_SPEAKER_FRAMES = 150;
/** How many outlier splits the tree walk may pass over. */
const MAX_OUTLIER_SPLITS = 24;

/**
 * Step 3 of the embedded speaker separation: a speaker index per window. With `overClusters`: that many
 * real clusters (outliers absorbed) whatever the count, for step 4c to merge.
 */
export function clusterSpeakers(
  blocks: BlockStore,
  windows: Window[],
  options: SeparateOptions,
  settings: SpeakerClusteringOptions,
  overClusters?: number,
): Int32Array {
  const n = windows.length;
  if (n === 0) return new Int32Array(0);
  const unit = l2Normalize(standardize(windows.map((w) => w.embedding)));
  // Regular subset for the O(n^2) clustering.
  const stride = Math.max(1, Math.ceil(n / settings.maxClusterWindows));
  const subset = Array.from({ length: Math.ceil(n / stride) }, (_, i) => i * stride);
  const m = subset.length;
  const vectors = subset.map((i) => unit[i]!);
  const merges = averageLinkage(cosineDistanceMatrix(vectors), m);

  const sub = subset.map((i) => windows[i]!);
  let subsetLabels: Int32Array;
  if (overClusters !== undefined) {
    subsetLabels = splitTree(blocks, sub, vectors, merges, settings, Math.min(m, overClusters), false);
  } else if (options.numSpeakers !== undefined && options.numSpeakers > 0) {
    const k = Math.min(options.numSpeakers, m);
    subsetLabels = splitTree(blocks, sub, vectors, merges, settings, k, false);
    // Not enough speech for k real clusters: plain cut, outliers and all, to honour the count.
    if (countLabels(subsetLabels) < k) subsetLabels = cutTree(merges, m, k);
  } else {
    const lo = Math.min(m, Math.max(1, options.minSpeakers ?? 1));
    const hi = Math.min(m, Math.max(lo, options.maxSpeakers ?? settings.defaultMaxSpeakers));
    subsetLabels = splitTree(blocks, sub, vectors, merges, settings, hi, true);
    if (countLabels(subsetLabels) < lo) subsetLabels = splitTree(blocks, sub, vectors, merges, settings, lo, false);
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
function splitTree(
  blocks: BlockStore,
  windows: Window[],
  vectors: Float32Array[],
  merges: Merge[],
  settings: SpeakerClusteringOptions,
  want: number,
  test: boolean,
): Int32Array {
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
    if (test && A.divergence(B) < settings.sameSpeakerDivergence) break;
    speakers++;
    accepted = finer;
  }
  return absorbOutliers(blocks, windows, vectors, accepted);
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

/** Full-covariance Gaussian statistics of the cepstra of a set of frames (also a voice print's content, voice-prints.ts). */
export class GaussianStats {
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

  add(other: GaussianStats): void {
    this.n += other.n;
    for (let d = 0; d < CEPSTRA; d++) this.sum[d]! += other.sum[d]!;
    for (let t = 0; t < TRI; t++) this.cross[t]! += other.cross[t]!;
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

/**
 * Step 4b (no count given): speakers whose block-precise speech one Gaussian explains almost as well as two
 * (divergence below mergeDivergence) are one speaker, merged closest pair first, down to `minSpeakers`.
 * The windows' clustering splits by 4 s windows, which straddle turns when people take short turns, and
 * then finds a "speaker" per side of each mixture; after resegmentation the labels are block-precise and
 * the test is on clean speech. Labels renumbered by first block; -1 stays -1.
 */
export function mergeSameSpeakers(
  blocks: BlockStore,
  labels: Int32Array,
  minSpeakers: number,
  settings: Pick<SpeakerClusteringOptions, 'mergeDivergence'>,
): Int32Array {
  const k = labels.reduce((max, l) => Math.max(max, l + 1), 0);
  const stats = Array.from({ length: k }, () => new GaussianStats());
  for (let b = 0; b < blocks.count; b++) if (labels[b]! >= 0) stats[labels[b]!]!.addBlock(blocks, b);
  const target = Array.from({ length: k }, (_, l) => l);
  const alive = new Set(target.filter((l) => stats[l]!.n > 0));
  while (alive.size > Math.max(1, minSpeakers)) {
    let best: [number, number] | null = null;
    let bestDivergence = settings.mergeDivergence;
    for (const a of alive) {
      for (const b of alive) {
        if (b <= a) continue;
        const d = stats[a]!.divergence(stats[b]!);
        if (d < bestDivergence) [best, bestDivergence] = [[a, b], d];
      }
    }
    if (!best) break;
    const [a, b] = best;
    stats[a]!.add(stats[b]!);
    alive.delete(b);
    for (let l = 0; l < k; l++) if (target[l] === b) target[l] = a;
  }
  return renumber(labels.map((l) => (l < 0 ? -1 : target[l]!)));
}

/**
 * The two speakers of `labels` that one Gaussian explains best together: the lowest likelihood ratio per frame
 * weighted as if both had as much speech (x (n_a + n_b)^2 / 4 n_a n_b; unweighted, a speaker with little speech
 * is cheap to merge into anyone). `divergence` is the unweighted ratio of that pair.
 */
export function closestSpeakers(
  blocks: BlockStore,
  labels: Int32Array,
): { a: number; b: number; divergence: number } | undefined {
  const k = labels.reduce((max, l) => Math.max(max, l + 1), 0);
  const stats = Array.from({ length: k }, () => new GaussianStats());
  for (let b = 0; b < blocks.count; b++) if (labels[b]! >= 0) stats[labels[b]!]!.addBlock(blocks, b);
  let best: { a: number; b: number; divergence: number; balanced: number } | undefined;
  for (let a = 0; a < k; a++) {
    if (stats[a]!.n === 0) continue;
    for (let b = a + 1; b < k; b++) {
      if (stats[b]!.n === 0) continue;
      const [na, nb] = [stats[a]!.n, stats[b]!.n];
      const divergence = stats[a]!.divergence(stats[b]!);
      const balanced = (divergence * (na + nb) ** 2) / (4 * na * nb);
      if (!best || balanced < best.balanced) best = { a, b, divergence, balanced };
    }
  }
  return best;
}

function countLabels(labels: Int32Array): number {
  return new Set(labels).size;
}

/**
 * Clusters with less than MIN_SPEAKER_FRAMES of speech join the real cluster whose centroid is
 * nearest (cosine); labels renumbered 0..k-1 in order of first window. Unchanged when no cluster
 * is big enough.
 */
function absorbOutliers(
  blocks: BlockStore,
  windows: readonly Window[],
  vectors: readonly Float32Array[],
  labels: Int32Array,
): Int32Array {
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
    if (l < 0) return l;
    if (!names.has(l)) names.set(l, names.size);
    return names.get(l)!;
  });
}
