// Agglomerative clustering with average linkage (UPGMA) over cosine distances, by the
// nearest-neighbour-chain algorithm: O(n^2) time and one n x n Float32 matrix (n = 2000: 16 MB).
// Pure; used by the speaker separation on window embeddings.

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
