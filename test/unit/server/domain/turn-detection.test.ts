import { describe, expect, it } from 'vitest';
import { TurnDetector } from '../../../../src-server/domain/turn-detection.js';

const WINDOW = 512;

/** Feeds one probability per window; answers the decisions with the sample where each was made. */
function run(
  probabilities: number[],
  detector = new TurnDetector({ threshold: 0.5, silenceSamples: 8000, maxTurnSamples: 16000 * 30 }),
) {
  const out: [string, number][] = [];
  probabilities.forEach((p, i) => {
    const decision = detector.push(p, i * WINDOW, (i + 1) * WINDOW);
    if (decision) out.push([decision, (i + 1) * WINDOW]);
  });
  return out;
}

describe('TurnDetector', () => {
  it('starts at the first speech window and stops after the silence duration', () => {
    const probabilities = [0.1, 0.2, 0.9, 0.8, 0.7, ...Array<number>(20).fill(0.05)];
    // 8000 samples of silence = 15.6 windows: the 16th silent window (index 20) ends the turn.
    expect(run(probabilities)).toEqual([
      ['start', 3 * WINDOW],
      ['stop', 21 * WINDOW],
    ]);
  });

  it('does not end a turn on a pause shorter than the silence duration, nor on probabilities in the hysteresis band', () => {
    const probabilities = [0.9, ...Array<number>(10).fill(0.05), 0.9, ...Array<number>(30).fill(0.4), 0.9];
    expect(run(probabilities)).toEqual([['start', WINDOW]]);
  });

  it('ends a turn that reaches the longest duration, and starts the next on speech', () => {
    const detector = new TurnDetector({ threshold: 0.5, silenceSamples: 8000, maxTurnSamples: 10 * WINDOW });
    expect(run(Array<number>(12).fill(0.9), detector)).toEqual([
      ['start', WINDOW],
      ['stop', 10 * WINDOW],
      ['start', 11 * WINDOW],
    ]);
  });

  it('tells how much silence the open turn has had so far, and none once speech resumes or the turn ends', () => {
    const detector = new TurnDetector({ threshold: 0.5, silenceSamples: 8000, maxTurnSamples: 16000 * 30 });
    const silences: number[] = [];
    [0.9, 0.05, 0.05, 0.4, 0.05, ...Array<number>(15).fill(0.05)].forEach((p, i) => {
      detector.push(p, i * WINDOW, (i + 1) * WINDOW);
      silences.push(detector.silence);
    });
    // Silent windows count, a window in the hysteresis band (0.4) resumes speech, and the 16th silent window ends the turn.
    expect(silences.slice(0, 6)).toEqual([0, WINDOW, 2 * WINDOW, 0, WINDOW, 2 * WINDOW]);
    expect(silences[18]).toBe(15 * WINDOW);
    expect(silences[19]).toBe(0);
  });
});
