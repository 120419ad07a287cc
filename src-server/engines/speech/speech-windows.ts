// Whisper windows built from voice activity: only speech reaches the recognizer, so it never sees a
// long silence (where whisper hallucinates "Thank you." and the like). Consecutive speech regions are
// joined end to end, without the silence between them, into windows of at most `maxSeconds` (whisper's
// context is 30 s); a region longer than that is split. Each window keeps its pieces, so a time inside
// the window maps back to the file's timeline exactly (toFileTime).
import type { SpeechSegment } from '../vad/vad.js';

export interface WindowPiece {
  /** Where the piece is in the file (seconds). */
  fileStart: number;
  fileEnd: number;
  /** Where it starts inside the window (seconds). */
  windowStart: number;
}

export interface SpeechWindow {
  pieces: WindowPiece[];
  /** Seconds of audio in the window (the sum of its pieces). */
  seconds: number;
}

/** Regions shorter than this carry no word whisper could recognize (and SileroVad never yields one). */
const MIN_PIECE_SECONDS = 0.05;

/** Speech regions (sorted, non-overlapping) -> windows of at most maxSeconds of speech each. */
export function speechWindows(regions: readonly SpeechSegment[], maxSeconds: number): SpeechWindow[] {
  const windows: SpeechWindow[] = [];
  let current: SpeechWindow | null = null;
  for (const region of regions) {
    for (let start = region.start; region.end - start >= MIN_PIECE_SECONDS;) {
      if (!current || current.seconds + MIN_PIECE_SECONDS > maxSeconds) {
        current = { pieces: [], seconds: 0 };
        windows.push(current);
      }
      // A region that does not fit starts a window of its own, unless it is longer than a window anyway.
      const length = region.end - start;
      if (current.seconds > 0 && current.seconds + length > maxSeconds && length <= maxSeconds) {
        current = { pieces: [], seconds: 0 };
        windows.push(current);
      }
      const end = Math.min(region.end, start + (maxSeconds - current.seconds));
      current.pieces.push({ fileStart: start, fileEnd: end, windowStart: current.seconds });
      current.seconds += end - start;
      start = end;
    }
  }
  return windows;
}

/** A time inside `window` (seconds) -> the same instant in the file; gaps never exist inside a window. */
export function toFileTime(window: SpeechWindow, seconds: number): number {
  const pieces = window.pieces;
  let piece = pieces[0]!;
  for (const p of pieces) {
    if (p.windowStart > seconds) break;
    piece = p;
  }
  const offset = Math.max(0, seconds - piece.windowStart);
  return Math.min(piece.fileEnd, piece.fileStart + offset);
}
