// Diarization error rate (DER), as NIST md-eval and pyannote.metrics define it:
//   DER = (missed speech + false alarm + speaker confusion) / total reference speech
// over the scored time, i.e. all of it except a collar (+-0.25 s by default) around every reference
// turn boundary, where human annotators disagree anyway. Hypothesis speakers are mapped one-to-one
// onto reference speakers by the mapping with the largest total overlap (Hungarian algorithm), so
// labels need not match. Overlapping speech is scored: at each instant with R reference and H
// hypothesis speakers of which C are correctly mapped pairs, missed += max(0, R - H), false alarm +=
// max(0, H - R), confusion += min(R, H) - C. Pure.

export interface LabelledTurn {
  start: number;
  end: number;
  speaker: string;
}

export interface DiarizationErrorOptions {
  /** Seconds excluded on each side of every reference boundary. Default 0.25. */
  collar?: number;
}

export interface DiarizationErrorResult {
  /** (missed + falseAlarm + confusion) / scored reference speech; 0 when both are empty. */
  der: number;
  /** Seconds of reference speech scored (speaker-weighted when turns overlap). */
  total: number;
  missed: number;
  falseAlarm: number;
  confusion: number;
  /** Hypothesis speaker -> reference speaker (unmapped hypothesis speakers are absent). */
  mapping: Record<string, string>;
}

/** Per speaker, the union of their turns (sorted, disjoint). */
function bySpeaker(turns: readonly LabelledTurn[]): Map<string, [number, number][]> {
  const map = new Map<string, [number, number][]>();
  for (const t of [...turns].sort((a, b) => a.start - b.start)) {
    if (!(t.end > t.start)) continue;
    const list = map.get(t.speaker) ?? [];
    const last = list.at(-1);
    if (last && t.start <= last[1]) last[1] = Math.max(last[1], t.end);
    else list.push([t.start, t.end]);
    map.set(t.speaker, list);
  }
  return map;
}

function activeAt(intervals: [number, number][], t: number): boolean {
  // Binary search: last interval starting at or before t.
  let lo = 0;
  let hi = intervals.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (intervals[mid]![0] <= t) [found, lo] = [mid, mid + 1];
    else hi = mid - 1;
  }
  return found >= 0 && t < intervals[found]![1];
}

export function diarizationError(
  reference: readonly LabelledTurn[],
  hypothesis: readonly LabelledTurn[],
  options: DiarizationErrorOptions = {},
): DiarizationErrorResult {
  const collar = options.collar ?? 0.25;
  const ref = bySpeaker(reference);
  const hyp = bySpeaker(hypothesis);
  const refNames = [...ref.keys()];
  const hypNames = [...hyp.keys()];

  // Unscored zones around reference boundaries, merged.
  const zones =
    bySpeaker(
      collar > 0
        ? [...ref.values()].flat().flatMap(([s, e]) => [
            { start: s - collar, end: s + collar, speaker: '' },
            { start: e - collar, end: e + collar, speaker: '' },
          ])
        : [],
    ).get('') ?? [];

  // Elementary intervals between every boundary.
  const cuts = new Set<number>();
  for (const list of [...ref.values(), ...hyp.values(), zones]) for (const [s, e] of list) cuts.add(s).add(e);
  const times = [...cuts].sort((a, b) => a - b);

  // Pass 1: scored overlap of every (reference, hypothesis) pair, for the mapping.
  const overlap = refNames.map(() => new Float64Array(hypNames.length));
  const pieces: { dt: number; refs: number[]; hyps: number[] }[] = [];
  for (let i = 0; i + 1 < times.length; i++) {
    const dt = times[i + 1]! - times[i]!;
    if (dt <= 0) continue;
    const mid = (times[i]! + times[i + 1]!) / 2;
    if (activeAt(zones, mid)) continue;
    const refs = refNames.flatMap((name, r) => (activeAt(ref.get(name)!, mid) ? [r] : []));
    const hyps = hypNames.flatMap((name, h) => (activeAt(hyp.get(name)!, mid) ? [h] : []));
    if (refs.length === 0 && hyps.length === 0) continue;
    for (const r of refs) for (const h of hyps) overlap[r]![h]! += dt;
    pieces.push({ dt, refs, hyps });
  }
  const assignment = maximumWeightMatching(overlap, refNames.length, hypNames.length);
  /** hypothesis index -> reference index, or -1. */
  const hypToRef = new Int32Array(hypNames.length).fill(-1);
  assignment.forEach((h, r) => {
    if (h >= 0 && overlap[r]![h]! > 0) hypToRef[h] = r;
  });

  // Pass 2: the error terms.
  let total = 0;
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  for (const { dt, refs, hyps } of pieces) {
    const correct = hyps.filter((h) => hypToRef[h]! >= 0 && refs.includes(hypToRef[h]!)).length;
    total += refs.length * dt;
    missed += Math.max(0, refs.length - hyps.length) * dt;
    falseAlarm += Math.max(0, hyps.length - refs.length) * dt;
    confusion += (Math.min(refs.length, hyps.length) - correct) * dt;
  }
  const mapping: Record<string, string> = {};
  hypToRef.forEach((r, h) => {
    if (r >= 0) mapping[hypNames[h]!] = refNames[r]!;
  });
  const errors = missed + falseAlarm + confusion;
  return { der: total > 0 ? errors / total : errors > 0 ? Infinity : 0, total, missed, falseAlarm, confusion, mapping };
}

/**
 * One-to-one assignment of rows to columns maximising the total weight (Hungarian algorithm with
 * potentials, O(n^3)), on a rectangular matrix padded with zeros. Returns, per row, its column or -1.
 */
export function maximumWeightMatching(weights: ArrayLike<number>[], rows: number, cols: number): number[] {
  const n = Math.max(rows, cols);
  if (n === 0) return [];
  let max = 0;
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) max = Math.max(max, weights[r]![c]!);
  const cost = (r: number, c: number) => max - (r < rows && c < cols ? weights[r]![c]! : 0);
  // 1-based arrays as in the textbook formulation.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[column] = row
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Infinity);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) [minv[j], way[j]] = [cur, j0];
        if (minv[j]! < delta) [delta, j1] = [minv[j]!, j];
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else {
          minv[j]! -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const result = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= n; j++) {
    const r = p[j]! - 1;
    if (r >= 0 && r < rows && j - 1 < cols) result[r] = j - 1;
  }
  return result;
}
