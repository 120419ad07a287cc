import { beforeAll, describe, expect, it } from 'vitest';
import { EnergyVad, frameEnergiesDb } from '../../../../../src-server/engines/vad/energy-vad.js';
import { speechSeconds } from '../../../../../src-server/engines/vad/vad.js';
import {
  audioDuration,
  concatWithSilence,
  pcmOf,
  synthesizeSpeech,
  toWav16k,
} from '../../../../support/audio-fixtures.js';

const RATE = 16000;

/** Synthetic "speech": 220 Hz bursts with a syllable-like envelope, and a bit of background noise. */
function babble(seconds: number, { amplitude = 8000, noise = 30, burst = 0.25, gap = 0.08 } = {}): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  let seed = 1;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const t = i / RATE;
    const phase = t % (burst + gap);
    const env = phase < burst ? Math.sin((Math.PI * phase) / burst) : 0;
    out[i] = Math.round(amplitude * env * Math.sin(2 * Math.PI * 220 * t) + ((seed / 0x7fffffff) * 2 - 1) * noise);
  }
  return out;
}

function concat(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('EnergyVad on synthesized speech', () => {
  let pcm: string;
  let first: number;
  let second: number;

  beforeAll(async () => {
    const a = await synthesizeSpeech('The birch canoe slid on the smooth planks.');
    const b = await synthesizeSpeech('Glue the sheet to the dark blue background.');
    pcm = await pcmOf(await concatWithSilence([a, b], 2));
    first = await audioDuration(await toWav16k(a));
    second = await audioDuration(await toWav16k(b));
  });

  it('finds the two sentences around the silence', async () => {
    const segments = await new EnergyVad().detect(pcm);
    expect(segments).toHaveLength(2);
    const [s1, s2] = segments as [{ start: number; end: number }, { start: number; end: number }];
    // Festival pads each sentence with a little silence of its own.
    expect(s1.start).toBeLessThan(0.4);
    expect(s1.end).toBeGreaterThan(first - 0.5);
    expect(s1.end).toBeLessThanOrEqual(first + 0.2);
    expect(s2.start).toBeGreaterThanOrEqual(first + 2 - 0.1);
    expect(s2.start).toBeLessThan(first + 2 + 0.4);
    expect(s2.end).toBeGreaterThan(first + 2 + second - 0.5);
    expect(speechSeconds(segments)).toBeLessThan(first + second);
  });

  it('reports progress while reading the file', async () => {
    const seen: number[] = [];
    await new EnergyVad().detect(pcm, { onProgress: (f) => seen.push(f) });
    expect(seen.at(-1)).toBe(1);
  });
});

describe('EnergyVad decisions', () => {
  const vad = new EnergyVad();

  it('frameEnergiesDb gives -100 dB for digital silence and ~-3 dB for a full-scale sine', () => {
    const sine = Int16Array.from({ length: 1600 }, (_, i) =>
      Math.round(32767 * Math.sin((2 * Math.PI * 440 * i) / RATE)),
    );
    const e = frameEnergiesDb(concat(new Int16Array(160), sine), 160);
    expect(e[0]).toBeCloseTo(-100, 0);
    expect(e[5]).toBeCloseTo(-3, 0);
  });

  it('hears nothing in silence or faint noise', () => {
    expect(vad.detectInSamples(new Int16Array(RATE * 3))).toEqual([]);
    expect(vad.detectInSamples(babble(3, { amplitude: 0, noise: 20 }))).toEqual([]);
  });

  it('drops clicks shorter than the minimum speech length', () => {
    const click = babble(0.05, { burst: 0.05, gap: 0 });
    expect(vad.detectInSamples(concat(new Int16Array(RATE), click, new Int16Array(RATE)))).toEqual([]);
  });

  it('bridges short pauses but splits at long ones', () => {
    const quiet = (s: number) => babble(s, { amplitude: 0 });
    const segments = vad.detectInSamples(
      concat(quiet(1), babble(2), quiet(0.2), babble(1), quiet(1.5), babble(1), quiet(1)),
    );
    expect(segments).toHaveLength(2);
    expect(segments[0]!.start).toBeCloseTo(1, 1);
    expect(segments[0]!.end).toBeCloseTo(4.2, 0);
    expect(segments[1]!.start).toBeCloseTo(5.7, 1);
  });

  it('adapts to a louder noise floor', () => {
    // Steady noise at ~-40 dBFS (above the absolute minimum), speech 25 dB louder.
    const noisy = babble(12, { amplitude: 0, noise: 600 });
    const speech = babble(2, { amplitude: 12000, noise: 600 });
    const segments = vad.detectInSamples(concat(noisy, speech, noisy.subarray(0, RATE * 2)));
    expect(segments).toHaveLength(1);
    expect(segments[0]!.start).toBeCloseTo(12, 0);
  });

  it('cuts continuous speech into segments of at most 30 s, at a quiet point', () => {
    // 70 s of babble whose pauses (80 ms) are too short to split on, with a slightly longer,
    // quieter pause at 25 s that should be preferred as the cut.
    const samples = concat(babble(25), babble(0.2, { amplitude: 0 }), babble(45));
    const segments = vad.detectInSamples(samples);
    expect(segments.length).toBeGreaterThanOrEqual(3);
    for (const s of segments) expect(s.end - s.start).toBeLessThanOrEqual(30);
    expect(segments[0]!.end).toBeCloseTo(25.1, 0);
    expect(segments.at(-1)!.end).toBeCloseTo(70.2, 0);
    // Contiguous: cutting loses no audio.
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.start).toBe(segments[i - 1]!.end);
  });
});
