// Speaker turns: where a different speaker starts talking. Shift+→ and Shift+← jump between them.

/** Start times of the segments where the speaker changes (the first segment always starts a turn). */
export function turnStarts(segments: ReadonlyArray<{ start: number; speaker: string | null }>): number[] {
  const starts: number[] = [];
  let previous: string | null | undefined;
  for (const segment of segments) {
    if (segment.speaker !== previous) starts.push(segment.start);
    previous = segment.speaker;
  }
  return starts;
}

/** A press shortly after a turn's start goes to the turn before it, as a media player's "previous" does. */
const BACK_GRACE_SECONDS = 1;

/** The next turn's start after `time`, or null at the last turn. */
export function nextTurn(starts: readonly number[], time: number): number | null {
  return starts.find((start) => start > time + 0.01) ?? null;
}

/** The start of the turn being played, or the one before when within a second of its start; null before the first. */
export function previousTurn(starts: readonly number[], time: number): number | null {
  for (let i = starts.length - 1; i >= 0; i--) if (starts[i]! < time - BACK_GRACE_SECONDS) return starts[i]!;
  return starts.length > 0 && time > 0 ? starts[0]! : null;
}
