import { describe, expect, it } from 'vitest';
import { nextTurn, previousTurn, turnStarts } from '../../../../src-renderer/features/transcript/speaker-turns';

const segments = [
  { start: 0, speaker: 'A' },
  { start: 4, speaker: 'A' },
  { start: 9, speaker: 'B' },
  { start: 15, speaker: 'B' },
  { start: 20, speaker: 'A' },
  { start: 31, speaker: null },
];

describe('speaker turns', () => {
  it('start where the speaker changes', () => {
    expect(turnStarts(segments)).toEqual([0, 9, 20, 31]);
    expect(turnStarts([])).toEqual([]);
  });

  it('jump to the next turn, and stop at the last', () => {
    const starts = turnStarts(segments);
    expect(nextTurn(starts, 0)).toBe(9);
    expect(nextTurn(starts, 9)).toBe(20);
    expect(nextTurn(starts, 12.5)).toBe(20);
    expect(nextTurn(starts, 31)).toBeNull();
  });

  it('jump back to the start of this turn, or the one before when just past its start', () => {
    const starts = turnStarts(segments);
    expect(previousTurn(starts, 14)).toBe(9);
    expect(previousTurn(starts, 9.5)).toBe(0);
    expect(previousTurn(starts, 20.2)).toBe(9);
    expect(previousTurn(starts, 0.5)).toBe(0);
    expect(previousTurn(starts, 0)).toBeNull();
  });
});
