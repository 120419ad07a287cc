import { describe, expect, it } from 'vitest';
import { fractionAt, playheadLeft, timeAtX, xAt } from '../../../../src-renderer/features/transcript/time-axis';

describe('the player time axis', () => {
  it('maps time to a fraction of the track, clamped to it', () => {
    expect(fractionAt(30, 120)).toBe(0.25);
    expect(fractionAt(-3, 120)).toBe(0);
    expect(fractionAt(500, 120)).toBe(1);
    expect(fractionAt(10, 0)).toBe(0);
    expect(fractionAt(Number.NaN, 120)).toBe(0);
  });

  it('draws bands and reads clicks with the same mapping, so a click on a band seeks to its time', () => {
    const duration = 95.5;
    const width = 1000;
    for (const seconds of [0, 12.25, 30, 47.75, 95.5]) {
      const x = xAt(seconds, duration, width);
      // A track drawn 812 px wide starting at 168 px: the click at the band's pixel gives its time back.
      const clientX = 168 + (x / width) * 812;
      expect(timeAtX(clientX, 168, 812, duration)).toBeCloseTo(seconds, 9);
    }
    expect(timeAtX(100, 168, 812, duration)).toBe(0);
    expect(timeAtX(2000, 168, 812, duration)).toBe(duration);
  });

  it('places the playhead in the track column, after the lane labels', () => {
    expect(playheadLeft(0.5)).toBe(
      'calc(var(--lane-label) + var(--lane-gap) + (100% - var(--lane-label) - var(--lane-gap)) * 0.5)',
    );
  });
});
