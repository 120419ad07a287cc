// TextRank: which units of a transcript are most central, for the overview and key points.

/**
 * PageRank over units linked by shared content words. An edge's weight is the idf-weighted overlap
 * of the two units' terms, normalised by their lengths (Mihalcea & Tarau's similarity).
 */
export function textRank(
  termLists: readonly (readonly string[])[],
  { damping = 0.85, iterations = 60, tolerance = 1e-6 } = {},
): number[] {
  const n = termLists.length;
  if (n === 0) return [];
  const sets = termLists.map((terms) => [...new Set(terms)]);
  const df = new Map<string, number[]>();
  sets.forEach((terms, i) => {
    for (const t of terms) {
      const list = df.get(t);
      if (list) list.push(i);
      else df.set(t, [i]);
    }
  });
  // Sparse symmetric weights, accumulated through the inverted index.
  const weights: Map<number, number>[] = Array.from({ length: n }, () => new Map<number, number>());
  for (const units of df.values()) {
    if (units.length < 2) continue;
    const idf = Math.log(1 + n / units.length);
    for (let a = 0; a < units.length; a++) {
      const i = units[a]!;
      for (let b = a + 1; b < units.length; b++) {
        const j = units[b]!;
        weights[i]!.set(j, (weights[i]!.get(j) ?? 0) + idf);
      }
    }
  }
  const norm = sets.map((s) => Math.log(2 + s.length));
  const edges: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    for (const [j, overlap] of weights[i]!) {
      const w = overlap / (norm[i]! + norm[j]!);
      edges[i]!.push([j, w]);
      edges[j]!.push([i, w]);
    }
  }
  const outWeight = edges.map((list) => list.reduce((sum, [, w]) => sum + w, 0));
  let scores = new Array<number>(n).fill(1);
  for (let iter = 0; iter < iterations; iter++) {
    const next = new Array<number>(n).fill(1 - damping);
    for (let j = 0; j < n; j++) {
      if (outWeight[j] === 0) continue;
      const share = (damping * scores[j]!) / outWeight[j]!;
      for (const [i, w] of edges[j]!) next[i]! += share * w;
    }
    let delta = 0;
    for (let i = 0; i < n; i++) delta = Math.max(delta, Math.abs(next[i]! - scores[i]!));
    scores = next;
    if (delta < tolerance) break;
  }
  return scores;
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  const sa = new Set(a);
  const sb = new Set(b);
  let both = 0;
  for (const t of sa) if (sb.has(t)) both++;
  const union = sa.size + sb.size - both;
  return union === 0 ? 0 : both / union;
}
