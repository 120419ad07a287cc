import { describe, expect, it } from 'vitest';
import { ETA_MIN_ELAPSED_SECONDS, estimateRemaining, etaWords } from '../../../src-shared/eta.js';

const startedAt = '2026-01-02T03:00:00.000Z';
const t0 = Date.parse(startedAt);
const at = (seconds: number) => t0 + seconds * 1000;

describe('estimateRemaining', () => {
  it('is the time the rest takes at the speed measured so far', () => {
    // 40% in 60 s: 60% more takes 90 s.
    const estimate = estimateRemaining({ progress: 0.4, startedAt, now: at(60) });
    expect(estimate?.seconds).toBeCloseTo(90);
  });

  it('says nothing before it means something: no progress, no start, too little done or too soon', () => {
    expect(estimateRemaining({ progress: null, startedAt, now: at(60) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt: null, now: at(60) })).toBeNull();
    expect(estimateRemaining({ progress: 0.05, startedAt, now: at(60) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(ETA_MIN_ELAPSED_SECONDS - 1) })).toBeNull();
    // A client clock behind the server's: processing has "not started" yet.
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(-30) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt: 'not a date', now: at(60) })).toBeNull();
  });

  it('counts down steadily when the speed holds', () => {
    const first = estimateRemaining({ progress: 0.2, startedAt, now: at(20) })!;
    expect(first.seconds).toBeCloseTo(80);
    const second = estimateRemaining({ progress: 0.3, startedAt, now: at(30), previous: first })!;
    expect(second.seconds).toBeCloseTo(70);
  });

  it('moves only part of the way when a measurement jumps', () => {
    const first = estimateRemaining({ progress: 0.2, startedAt, now: at(20) })!; // 80 s left
    // Progress leaps to 60% at 30 s: the raw figure is 20 s; the counted-down one was 70 s.
    const second = estimateRemaining({ progress: 0.6, startedAt, now: at(30), previous: first })!;
    expect(second.seconds).toBeLessThan(70);
    expect(second.seconds).toBeGreaterThan(20);
    expect(second.seconds).toBeCloseTo(70 + 0.3 * (20 - 70));
  });

  it('grows when the work stalls', () => {
    const first = estimateRemaining({ progress: 0.5, startedAt, now: at(60) })!; // 60 s left
    let estimate = first;
    for (let s = 70; s <= 200; s += 10) estimate = estimateRemaining({ progress: 0.5, startedAt, now: at(s), previous: estimate })!;
    expect(estimate.seconds).toBeGreaterThan(first.seconds);
  });

  it('starts again for another run (a retry)', () => {
    const first = estimateRemaining({ progress: 0.5, startedAt, now: at(600) })!;
    const retryStart = new Date(at(700)).toISOString();
    const retry = estimateRemaining({ progress: 0.5, startedAt: retryStart, now: at(710), previous: first })!;
    expect(retry.seconds).toBeCloseTo(10);
  });

  it('gives the speed against real time when the audio length is known', () => {
    // Half of a 10-minute recording in 60 s: five times real time.
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(60), durationSeconds: 600 })?.speed).toBeCloseTo(5);
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(60) })?.speed).toBeNull();
  });
});

describe('etaWords', () => {
  it('says it as people do', () => {
    expect(etaWords(0)).toEqual({ kind: 'under-minute' });
    expect(etaWords(59)).toEqual({ kind: 'under-minute' });
    expect(etaWords(60)).toEqual({ kind: 'minutes', minutes: 1 });
    expect(etaWords(130)).toEqual({ kind: 'minutes', minutes: 2 });
    expect(etaWords(89 * 60)).toEqual({ kind: 'minutes', minutes: 89 });
    expect(etaWords(95 * 60)).toEqual({ kind: 'hours', hours: 1, minutes: 35 });
    expect(etaWords(2 * 3600 + 61)).toEqual({ kind: 'hours', hours: 2, minutes: 0 });
  });
});
