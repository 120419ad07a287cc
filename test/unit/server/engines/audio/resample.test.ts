import { describe, expect, it } from 'vitest';
import { Resampler24To16 } from '../../../../../src-server/engines/audio/resample.js';

const tone = (hz: number, rate: number, seconds: number, amplitude = 8000) =>
  Int16Array.from({ length: Math.round(rate * seconds) }, (_, i) =>
    Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate)),
  );

/** Amplitude of `hz` in the signal (a single DFT bin), away from the edges. */
function level(samples: Int16Array, hz: number, rate: number): number {
  let re = 0;
  let im = 0;
  const from = 200;
  const to = samples.length - 200;
  for (let i = from; i < to; i++) {
    re += samples[i]! * Math.cos((2 * Math.PI * hz * i) / rate);
    im += samples[i]! * Math.sin((2 * Math.PI * hz * i) / rate);
  }
  return (2 * Math.hypot(re, im)) / (to - from);
}

describe('Resampler24To16', () => {
  it('gives two samples for every three, whatever the chunking', () => {
    const input = tone(440, 24000, 1);
    const whole = new Resampler24To16().push(input);
    const chunked = new Resampler24To16();
    const parts: Int16Array[] = [];
    for (let at = 0; at < input.length; at += 377) parts.push(chunked.push(input.subarray(at, at + 377)));
    const joined = Int16Array.from(parts.flatMap((p) => [...p]));
    expect(Math.abs(whole.length - 16000)).toBeLessThanOrEqual(16);
    expect(joined).toEqual(whole);
  });

  it('keeps speech frequencies and removes what 16 kHz cannot hold (no aliasing)', () => {
    const kept = new Resampler24To16().push(tone(1000, 24000, 1));
    expect(level(kept, 1000, 16000)).toBeGreaterThan(7500);
    expect(level(kept, 1000, 16000)).toBeLessThan(8500);
    // 11 kHz would fold to 5 kHz at 16 kHz without the low-pass.
    const high = new Resampler24To16().push(tone(11000, 24000, 1));
    expect(level(high, 5000, 16000)).toBeLessThan(400);
  });
});
