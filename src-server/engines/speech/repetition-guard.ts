// Whisper's failure mode on hard audio: a decoding loop ("the the the", or a sentence over and over to
// the end of the window). Two checks, as the reference implementations do:
// - the gzip compression ratio of the text (openai-whisper fails a decode above 2.4: a loop compresses
//   far better than language);
// - a phrase of 1-20 units (the engine passes whisper's text tokens: a loop can sit inside one word, and
//   languages written without spaces have no words) repeated back to back, at least 3 times and over at
//   least 6 units.
// The engine re-runs a looping window at higher temperatures and, when every temperature loops, keeps
// the least looping result with the repeated copies removed (trimRepetitions).
import { gzipSync } from 'node:zlib';

/** openai-whisper's compression_ratio_threshold. */
export const COMPRESSION_RATIO_THRESHOLD = 2.4;
const MAX_PHRASE_UNITS = 20;
const MIN_REPEATS = 3;
const MIN_LOOP_UNITS = 6;

/** UTF-8 bytes of `text` over its gzip size (as openai-whisper's compression_ratio). */
export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return 0;
  return bytes.length / gzipSync(bytes).length;
}

export interface Repetition {
  /** Index of the first unit of the first copy. */
  start: number;
  /** Units per copy. */
  length: number;
  /** Copies back to back (>= 3). */
  count: number;
}

/** Comparable form of a unit: lower case, without punctuation around it. */
function normal(unit: string): string {
  return unit.toLowerCase().replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, '');
}

/** The earliest back-to-back repetition long enough to be a loop, or null. */
export function findRepetition(units: readonly string[]): Repetition | null {
  const u = units.map(normal);
  const n = u.length;
  for (let start = 0; start < n; start++) {
    for (let length = 1; length <= MAX_PHRASE_UNITS && start + 2 * length <= n; length++) {
      let count = 1;
      while (start + (count + 1) * length <= n && sameRun(u, start, start + count * length, length)) count++;
      if (count >= MIN_REPEATS && count * length >= MIN_LOOP_UNITS) return { start, length, count };
    }
  }
  return null;
}

function sameRun(u: string[], a: number, b: number, length: number): boolean {
  for (let i = 0; i < length; i++) if (u[a + i] !== u[b + i]) return false;
  return true;
}

/** Whether a window's text looks like a decoding loop. */
export function isLooping(text: string, units: readonly string[]): boolean {
  return compressionRatio(text) > COMPRESSION_RATIO_THRESHOLD || findRepetition(units) !== null;
}

/** Indexes of the units to keep: every loop cut down to its first copy. */
export function trimRepetitions(units: readonly string[]): number[] {
  const keep: number[] = [];
  let offset = 0;
  let rest = units;
  for (let found = findRepetition(rest); found; found = findRepetition(rest)) {
    for (let i = 0; i < found.start + found.length; i++) keep.push(offset + i);
    const skip = found.start + found.count * found.length;
    offset += skip;
    rest = rest.slice(skip);
  }
  for (let i = 0; i < rest.length; i++) keep.push(offset + i);
  return keep;
}

/**
 * Indexes of the pieces to keep (a window's tokens, as their bytes) with every repeated copy of a loop
 * removed, judged on the bytes: the same text over and over is a loop even when the decoder split it into
 * different tokens each time ("mito" + "kamo", then "mi" + "tokamo"), which a check of token ids misses.
 * A piece is dropped when every one of its bytes lies in a repeated copy.
 */
export function trimRepeatedBytes(pieces: readonly Uint8Array[]): number[] {
  const units: string[] = [];
  const owner: number[] = [];
  for (const [i, piece] of pieces.entries())
    for (const byte of piece) {
      units.push(String.fromCharCode(byte));
      owner.push(i);
    }
  const kept = new Set(trimRepetitions(units).map((u) => owner[u]!));
  return pieces.flatMap((piece, i) => (piece.length === 0 || kept.has(i) ? [i] : []));
}
