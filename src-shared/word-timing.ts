// Keeps word timing through a text correction (the app's edits, and the server reading reviews back).
// The new text is aligned with the segment's timed words
// (longest common subsequence over normalised words): words that still match keep their times and
// confidence; inserted or changed words share, in proportion to their length, the time of the words
// they replace, or the gap between their matched neighbours.
import type { TranscriptSegment, TranscriptWord } from './transcript-document.js';

const normalise = (word: string) =>
  word
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');

export function tokenize(text: string): string[] {
  return text.trim().split(/\s+/).filter(Boolean);
}

/**
 * The most cells the alignment's table may have (16 MB). A review saved through the API can hold hundreds of
 * thousands of words on one line: past this, the common start and end are paired and only what lies between
 * is aligned, when that fits (else its words are re-timed over the time they replace).
 */
const MAX_CELLS = 4_000_000;

/**
 * Pairs [oldIndex, newIndex] of an LCS alignment, in order. Words are compared by `key`: normalised (case
 * and surrounding punctuation ignored) for keeping timing; exact for showing what changed (word-diff.ts).
 */
export function alignWords(
  oldWords: string[],
  newWords: string[],
  key: (word: string) => string = normalise,
): Array<[number, number]> {
  const a = oldWords.map(key);
  const b = newWords.map(key);
  const n = a.length;
  const m = b.length;
  if ((n + 1) * (m + 1) > MAX_CELLS) {
    const same = (i: number, j: number) => a[i] === b[j] && a[i] !== '';
    let head = 0;
    while (head < n && head < m && same(head, head)) head++;
    let tail = 0;
    while (tail < n - head && tail < m - head && same(n - 1 - tail, m - 1 - tail)) tail++;
    const fits = (n - head - tail + 1) * (m - head - tail + 1) <= MAX_CELLS;
    const middle = fits
      ? alignWords(oldWords.slice(head, n - tail), newWords.slice(head, m - tail), key).map(
          ([i, j]): [number, number] => [i + head, j + head],
        )
      : [];
    return [
      ...Array.from({ length: head }, (_, k): [number, number] => [k, k]),
      ...middle,
      ...Array.from({ length: tail }, (_, k): [number, number] => [n - tail + k, m - tail + k]),
    ];
  }
  // lengths[i][j]: LCS of a[i..] and b[j..], in one flat array.
  const lengths = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[at(i, j)] =
        a[i] === b[j] && a[i] !== ''
          ? lengths[at(i + 1, j + 1)]! + 1
          : Math.max(lengths[at(i + 1, j)]!, lengths[at(i, j + 1)]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j] && a[i] !== '') {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (lengths[at(i + 1, j)]! >= lengths[at(i, j + 1)]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * Two word sequences as one walk of their alignment (alignWords, compared by `key`), in order: a step holds a
 * word of each where they match, and one word of either where only that side has it.
 */
export function alignedSteps<W>(a: readonly W[], b: readonly W[], key: (word: W) => string): { a?: W; b?: W }[] {
  const pairs = alignWords(a.map(key), b.map(key), (word) => word);
  const steps: { a?: W; b?: W }[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of pairs) {
    while (i < pi) steps.push({ a: a[i++]! });
    while (j < pj) steps.push({ b: b[j++]! });
    steps.push({ a: a[i++]!, b: b[j++]! });
  }
  while (i < a.length) steps.push({ a: a[i++]! });
  while (j < b.length) steps.push({ b: b[j++]! });
  return steps;
}

const round = (t: number) => Math.round(t * 1000) / 1000;

/** Spreads `tokens` over [start, end] in proportion to their length. */
export function spreadWords(tokens: string[], start: number, end: number): TranscriptWord[] {
  const weights = tokens.map((t) => Math.max(1, [...t].length));
  const total = weights.reduce((s, w) => s + w, 0);
  const span = Math.max(0, end - start);
  let cursor = start;
  return tokens.map((word, k) => {
    const length = (span * weights[k]!) / total;
    const w = { word, start: round(cursor), end: round(cursor + length), confidence: null };
    cursor += length;
    return w;
  });
}

/** The words of `segment` re-timed for `newText`. */
export function retimeWords(
  segment: Pick<TranscriptSegment, 'start' | 'end' | 'words'>,
  newText: string,
): TranscriptWord[] {
  const tokens = tokenize(newText);
  const old = segment.words;
  if (tokens.length === 0) return [];
  if (old.length === 0) return spreadWords(tokens, segment.start, segment.end);
  const pairs = alignWords(
    old.map((w) => w.word),
    tokens,
  );
  const result: TranscriptWord[] = [];
  // Walk the gaps between matched words, with virtual anchors before the first and after the last.
  const anchors: Array<[number, number]> = [[-1, -1], ...pairs, [old.length, tokens.length]];
  for (let k = 0; k < anchors.length - 1; k++) {
    const [oldPrev, newPrev] = anchors[k]!;
    const [oldNext, newNext] = anchors[k + 1]!;
    const gapTokens = tokens.slice(newPrev + 1, newNext);
    if (gapTokens.length > 0) {
      const replaced = old.slice(oldPrev + 1, oldNext);
      const start = replaced.length > 0 ? replaced[0]!.start : oldPrev >= 0 ? old[oldPrev]!.end : segment.start;
      const end = replaced.length > 0 ? replaced.at(-1)!.end : oldNext < old.length ? old[oldNext]!.start : segment.end;
      // Not push(...): a gap can hold hundreds of thousands of words (a long review on one line), past the
      // number of arguments a call can take.
      for (const word of spreadWords(gapTokens, start, Math.max(start, end))) result.push(word);
    }
    if (oldNext < old.length && newNext < tokens.length) {
      const kept = old[oldNext]!;
      result.push({ word: tokens[newNext]!, start: kept.start, end: kept.end, confidence: kept.confidence });
    }
  }
  return result;
}
