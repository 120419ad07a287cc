import { describe, expect, it } from 'vitest';
import {
  diarizationError,
  maximumWeightMatching,
} from '../../../../../src-server/engines/speakers/diarization-error.js';

const t = (start: number, end: number, speaker: string) => ({ start, end, speaker });

describe('diarizationError', () => {
  const reference = [t(0, 10, 'alice'), t(10, 20, 'bob'), t(20, 30, 'alice')];

  it('is 0 for a perfect hypothesis, whatever its labels', () => {
    const r = diarizationError(reference, [t(0, 10, 'S1'), t(10, 20, 'S2'), t(20, 30, 'S1')]);
    expect(r.der).toBe(0);
    expect(r.mapping).toEqual({ S1: 'alice', S2: 'bob' });
    // Collar: 0.25 s around each of the 4 distinct boundaries (0, 10, 20, 30); the two at the file's
    // ends only remove 0.25 s of speech each.
    expect(r.total).toBeCloseTo(30 - 0.25 * 2 - 0.5 * 2, 6);
  });

  it('counts missed speech, false alarm and confusion separately', () => {
    const r = diarizationError(reference, [t(0, 5, 'S1'), t(10, 20, 'S1'), t(20, 35, 'S2')], { collar: 0 });
    // S1 has 5 s with alice and 10 with bob -> mapped to bob; S2 -> alice.
    expect(r.mapping).toEqual({ S1: 'bob', S2: 'alice' });
    expect(r.missed).toBeCloseTo(5, 6); // 5..10
    expect(r.falseAlarm).toBeCloseTo(5, 6); // 30..35
    expect(r.confusion).toBeCloseTo(5, 6); // 0..5 labelled bob
    expect(r.total).toBeCloseTo(30, 6);
    expect(r.der).toBeCloseTo(15 / 30, 6);
  });

  it('ignores errors inside the collar around reference boundaries', () => {
    // Hypothesis boundary 0.2 s late: inside the 0.25 s collar.
    const hyp = [t(0, 10.2, 'A'), t(10.2, 20, 'B'), t(20, 30, 'A')];
    expect(diarizationError(reference, hyp).der).toBe(0);
    expect(diarizationError(reference, hyp, { collar: 0 }).confusion).toBeCloseTo(0.2, 6);
  });

  it('is 1 when nothing is found and counts everything as false alarm without reference speech', () => {
    expect(diarizationError(reference, [], { collar: 0 }).der).toBe(1);
    expect(diarizationError([], []).der).toBe(0);
    const fa = diarizationError([], [t(0, 2, 'A')]);
    expect(fa.falseAlarm).toBe(2);
    expect(fa.der).toBe(Infinity);
  });

  it('scores overlapping speech per speaker', () => {
    const ref = [t(0, 10, 'a'), t(5, 10, 'b')];
    // Only one speaker found during the overlap: 5 s missed.
    const r = diarizationError(ref, [t(0, 10, 'X')], { collar: 0 });
    expect(r.total).toBe(15);
    expect(r.missed).toBe(5);
    expect(r.confusion).toBe(0);
  });

  it('uses the optimal one-to-one mapping, not a greedy one', () => {
    // Overlaps: a-X 5 s, a-Y 4 s, b-X 4 s, b-Y 0. Greedy takes a-X first and is left with b-Y:
    // 5 s correct. Optimal: a-Y + b-X = 8 s correct.
    const ref = [t(0, 9, 'a'), t(9, 13, 'b')];
    const hyp = [t(0, 5, 'X'), t(5, 9, 'Y'), t(9, 13, 'X')];
    const weights = [
      [5, 4],
      [4, 0],
    ];
    expect(maximumWeightMatching(weights, 2, 2)).toEqual([1, 0]);
    const r = diarizationError(ref, hyp, { collar: 0 });
    expect(r.mapping).toEqual({ X: 'b', Y: 'a' });
    expect(r.confusion).toBeCloseTo(5, 6);
    expect(r.der).toBeCloseTo(5 / 13, 6);
  });

  it('leaves extra hypothesis speakers unmapped (their time is confusion)', () => {
    const r = diarizationError([t(0, 10, 'a')], [t(0, 6, 'A'), t(6, 10, 'B')], { collar: 0 });
    expect(Object.keys(r.mapping)).toEqual(['A']);
    expect(r.confusion).toBeCloseTo(4, 6);
    expect(maximumWeightMatching([[1, 2, 3]], 1, 3)).toEqual([2]);
  });
});
