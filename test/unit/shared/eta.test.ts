import { describe, expect, it } from 'vitest';
import {
  ETA_STALL_SECONDS,
  estimateRemaining,
  etaWords,
  type EtaEstimate,
  type EtaInput,
} from '../../../src-shared/eta.js';

const startedAt = '2026-01-02T03:00:00.000Z';
const t0 = Date.parse(startedAt);
const at = (seconds: number) => t0 + seconds * 1000;

/** Feeds polls in order, as the app does, and returns the last estimate. */
function polls(
  samples: Array<Omit<EtaInput, 'previous' | 'startedAt' | 'now'> & { t: number; startedAt?: string }>,
  from: EtaEstimate | null = null,
) {
  let estimate = from;
  for (const { t, ...sample } of samples)
    estimate = estimateRemaining({ startedAt, ...sample, now: at(t), previous: estimate });
  return estimate;
}

describe('estimateRemaining', () => {
  it('is the time the rest takes at the speed of the current stage', () => {
    // Recognizing: 20% -> 40% in 20 s, so the other 60% takes 60 s.
    const estimate = polls([
      { t: 10, progress: 0.2, stage: 'recognizing' },
      { t: 30, progress: 0.4, stage: 'recognizing' },
    ]);
    expect(estimate?.seconds).toBeCloseTo(60);
  });

  it('is not fooled by a fast first stage: the conversion racing through 15% says nothing of recognition', () => {
    const estimate = polls([
      { t: 5, progress: 0.15, stage: 'converting' },
      { t: 6, progress: 0.15, stage: 'recognizing' },
      { t: 26, progress: 0.25, stage: 'recognizing' },
    ]);
    // 10% in 20 s while recognizing: 150 s left, where the average since the start would say ~78 s.
    expect(estimate?.seconds).toBeCloseTo(150);
  });

  it('says nothing before it means something: no progress, no start, too little done, too soon, or a stage not measured yet', () => {
    expect(estimateRemaining({ progress: null, startedAt, now: at(60) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt: null, now: at(60) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(3) })).toBeNull();
    // A client clock behind the server's: processing has "not started" yet.
    expect(estimateRemaining({ progress: 0.5, startedAt, now: at(-30) })).toBeNull();
    expect(estimateRemaining({ progress: 0.5, startedAt: 'not a date', now: at(60) })).toBeNull();
    // First seen: nothing measured yet.
    expect(estimateRemaining({ progress: 0.5, startedAt, stage: 'recognizing', now: at(60) })?.seconds).toBeNull();
    // Too little done, even measured.
    expect(
      polls([
        { t: 10, progress: 0.01 },
        { t: 20, progress: 0.05 },
      ])?.seconds,
    ).toBeNull();
  });

  it('counts down steadily when the speed holds', () => {
    const first = polls([
      { t: 10, progress: 0.2 },
      { t: 20, progress: 0.3 },
    ])!;
    expect(first.seconds).toBeCloseTo(70);
    const second = polls([{ t: 30, progress: 0.4 }], first)!;
    expect(second.seconds).toBeCloseTo(60);
    // Between polls the figure counts down by itself.
    expect(polls([{ t: 35, progress: 0.4 }], second)!.seconds).toBeCloseTo(55 + 0.3 * (75 - 55));
  });

  it('moves only part of the way when a measurement jumps', () => {
    const first = polls([
      { t: 10, progress: 0.2 },
      { t: 20, progress: 0.3 },
    ])!; // 70 s left
    // Progress leaps to 70% at 30 s: the raw figure is 20 * 0.3 / 0.5 = 12 s; the counted-down one 60 s.
    const second = polls([{ t: 30, progress: 0.7 }], first)!;
    expect(second.seconds).toBeCloseTo(60 + 0.3 * (12 - 60));
  });

  it('grows when the work stalls', () => {
    const first = polls([
      { t: 10, progress: 0.4 },
      { t: 20, progress: 0.5 },
    ])!; // 50 s left
    const stalled = polls(
      Array.from({ length: 12 }, (_, i) => ({ t: 25 + i * 5, progress: 0.5 })),
      first,
    )!;
    expect(25 + 11 * 5 - 20).toBeGreaterThan(ETA_STALL_SECONDS);
    expect(stalled.seconds!).toBeGreaterThan(first.seconds!);
  });

  it('starts again for another run (a retry)', () => {
    const first = polls([
      { t: 10, progress: 0.2 },
      { t: 20, progress: 0.5 },
    ])!;
    const retryStart = new Date(at(700)).toISOString();
    const retry = estimateRemaining({ progress: 0.3, startedAt: retryStart, now: at(710), previous: first })!;
    expect(retry.seconds).toBeNull();
    expect(retry.anchor).toEqual({ stage: null, progress: 0.3, at: at(710) });
  });

  it('gives the speed against real time when the audio length is known', () => {
    // 20% of a 10-minute recording in 24 s: five times real time.
    const estimate = polls([
      { t: 10, progress: 0.2, durationSeconds: 600 },
      { t: 34, progress: 0.4, durationSeconds: 600 },
    ]);
    expect(estimate?.speed).toBeCloseTo(5);
    expect(
      polls([
        { t: 10, progress: 0.2 },
        { t: 34, progress: 0.4 },
      ])?.speed,
    ).toBeNull();
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
