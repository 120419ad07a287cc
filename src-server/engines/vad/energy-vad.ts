// Energy-based voice activity detection over 10 ms frames. Crude next to a neural VAD (it hears any
// loud noise as speech) but dependency-free and fast; the VoiceActivityDetector interface lets a
// Silero implementation replace it.
//
// Memory: one float per 10 ms frame (2 hours = 720k frames = 2.9 MB); the samples themselves are
// streamed from disk in 10 s chunks.
import fsp from 'node:fs/promises';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import { readPcmChunks } from '../audio/pcm-file.js';
import type { SpeechSegment, VadOptions, VoiceActivityDetector } from './vad.js';

export interface EnergyVadOptions {
  sampleRate: number;
  frameMs: number;
  /** A frame is loud when this many dB above the running noise floor... */
  thresholdDb: number;
  /** ...and above this absolute level (dBFS), so near-digital silence never counts as speech. */
  minEnergyDb: number;
  /** Speech is held this long after the last loud frame (weak word endings such as "s", "f"). */
  hangoverMs: number;
  /** Pauses shorter than this do not split a segment. */
  minSilenceMs: number;
  /** Shorter bursts (clicks, bumps) are dropped. */
  minSpeechMs: number;
  /** Longer segments are cut at their quietest 100 ms, keeping decoder utterances short. */
  maxSegmentSeconds: number;
}

export const DEFAULT_ENERGY_VAD_OPTIONS: EnergyVadOptions = {
  sampleRate: SAMPLE_RATE,
  frameMs: 10,
  thresholdDb: 10,
  minEnergyDb: -55,
  hangoverMs: 150,
  minSilenceMs: 300,
  minSpeechMs: 200,
  maxSegmentSeconds: 30,
};

/** Mean power of each frame in dBFS (full scale = 0 dB; digital silence = -100 dB). */
export function frameEnergiesDb(samples: Int16Array, frameSize: number): Float32Array {
  const frames = Math.ceil(samples.length / frameSize);
  const out = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    const end = Math.min(samples.length, (f + 1) * frameSize);
    let sum = 0;
    for (let i = f * frameSize; i < end; i++) {
      const x = samples[i]! / 32768;
      sum += x * x;
    }
    out[f] = 10 * Math.log10(sum / (end - f * frameSize) + 1e-10);
  }
  return out;
}

export class EnergyVad implements VoiceActivityDetector {
  readonly name = 'energy';
  readonly options: EnergyVadOptions;

  constructor(options: Partial<EnergyVadOptions> = {}) {
    this.options = { ...DEFAULT_ENERGY_VAD_OPTIONS, ...options };
  }

  private get frameSize(): number {
    return Math.round((this.options.sampleRate * this.options.frameMs) / 1000);
  }

  async detect(pcmPath: string, { signal, onProgress }: VadOptions = {}): Promise<SpeechSegment[]> {
    const totalSamples = (await fsp.stat(pcmPath)).size >> 1;
    const energies = new Float32Array(Math.ceil(totalSamples / this.frameSize));
    // 1000 frames (10 s) per read: a whole number of frames, so none straddles two chunks.
    const chunkSamples = this.frameSize * 1000;
    let frame = 0;
    let done = 0;
    for await (const chunk of readPcmChunks(pcmPath, chunkSamples, signal)) {
      const e = frameEnergiesDb(chunk, this.frameSize);
      energies.set(e.subarray(0, energies.length - frame), frame);
      frame += e.length;
      done += chunk.length;
      onProgress?.(totalSamples ? done / totalSamples : 1);
    }
    return this.segmentFrames(energies.subarray(0, frame));
  }

  /** Same as detect() on samples already in memory (tests, short clips). */
  detectInSamples(samples: Int16Array): SpeechSegment[] {
    return this.segmentFrames(frameEnergiesDb(samples, this.frameSize));
  }

  /** The decision logic, on per-frame energies in dBFS. */
  segmentFrames(energy: Float32Array): SpeechSegment[] {
    const o = this.options;
    const ms = (x: number) => Math.max(1, Math.round(x / o.frameMs));
    const n = energy.length;
    if (n === 0) return [];

    // 1. Loud frames against an adaptive noise floor. The floor starts at the 10th percentile of
    //    the first 3 s, drops quickly to quieter frames and rises slowly through non-speech, and
    //    barely at all during speech (pauses between words pull it back down anyway).
    const head = Array.from(energy.subarray(0, Math.min(n, 300))).sort((a, b) => a - b);
    let floor = head[Math.floor(head.length * 0.1)]!;
    const active = new Uint8Array(n);
    const hangover = ms(o.hangoverMs);
    let hold = 0;
    for (let i = 0; i < n; i++) {
      const e = energy[i]!;
      const loud = e > Math.max(floor + o.thresholdDb, o.minEnergyDb);
      hold = loud ? hangover : Math.max(0, hold - 1);
      active[i] = loud || hold > 0 ? 1 : 0;
      floor += (e - floor) * (e < floor ? 0.3 : loud ? 0.0005 : 0.02);
    }

    // 2. Runs of active frames; bridge short pauses; drop short bursts.
    let runs: [number, number][] = [];
    for (let i = 0; i < n;) {
      if (!active[i]) {
        i++;
        continue;
      }
      let j = i;
      while (j < n && active[j]) j++;
      const prev = runs[runs.length - 1];
      if (prev && i - prev[1] < ms(o.minSilenceMs)) prev[1] = j;
      else runs.push([i, j]);
      i = j;
    }
    runs = runs.filter(([s, e]) => e - s >= ms(o.minSpeechMs));

    // 3. Cut over-long runs at the quietest 100 ms of their second half.
    const maxFrames = ms(o.maxSegmentSeconds * 1000);
    const win = ms(100);
    const out: SpeechSegment[] = [];
    const toSeconds = (f: number) => (f * o.frameMs) / 1000;
    for (const [start, e] of runs) {
      let s = start;
      while (e - s > maxFrames) {
        let cut = s + maxFrames;
        let quietest = Infinity;
        for (let c = s + (maxFrames >> 1); c < s + maxFrames; c++) {
          let sum = 0; // over 100 ms around c, so a stop consonant's closure is not mistaken for a pause
          for (let i = c - (win >> 1); i < Math.min(c + (win >> 1), e); i++) sum += energy[i]!;
          if (sum < quietest) [quietest, cut] = [sum, c];
        }
        out.push({ start: toSeconds(s), end: toSeconds(cut) });
        s = cut;
      }
      out.push({ start: toSeconds(s), end: toSeconds(e) });
    }
    return out;
  }
}
