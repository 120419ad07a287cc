// Waveform peaks, computed in main with ffmpeg so the renderer never decodes audio (a 3-hour file
// would take gigabytes there). ffmpeg streams 8 kHz mono s16le; each bucket keeps its min and max.
// Long files get fewer buckets per second, so the JSON stays around a megabyte whatever the length.
import { spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { WaveformPeaks } from '../../src-shared/ipc-contract.js';
import { pathInside } from '../cache/safe-path.js';
import { peaksToolCommand } from './audio-tools.js';

const run = promisify(execFile);

export const PEAKS_SAMPLE_RATE = 8000;
/** Buckets per second for short files. */
export const MAX_BUCKETS_PER_SECOND = 50;
/** At most this many buckets per file: 100k min/max pairs is ~1.3 MB of JSON. */
export const MAX_BUCKETS = 100_000;

export interface PeaksOptions {
  signal?: AbortSignal;
  ffmpegPath?: string;
  ffprobePath?: string;
}

/**
 * At least this many buckets (a second's worth) for a file under a second: a 0.2-second file at 50 a second
 * would be 10 buckets, which the waveform stretches over its whole width as a solid slab.
 */
export const MIN_BUCKETS = MAX_BUCKETS_PER_SECOND;
/** The finest buckets, for the shortest files: four samples each. */
export const FINEST_BUCKETS_PER_SECOND = PEAKS_SAMPLE_RATE / 4;

/**
 * Buckets per second for a file of `duration` seconds: 50, fewer when that would exceed MAX_BUCKETS, more
 * (up to FINEST_BUCKETS_PER_SECOND) when that would be under MIN_BUCKETS.
 */
export function chooseResolution(duration: number, maxBuckets = MAX_BUCKETS): number {
  if (!(duration > 0)) return MAX_BUCKETS_PER_SECOND;
  if (duration * MAX_BUCKETS_PER_SECOND < MIN_BUCKETS)
    return Math.min(FINEST_BUCKETS_PER_SECOND, Math.ceil(MIN_BUCKETS / duration));
  const fit = maxBuckets / duration;
  if (fit >= MAX_BUCKETS_PER_SECOND) return MAX_BUCKETS_PER_SECOND;
  // Whole numbers while possible; below one bucket per second, a fraction.
  return fit >= 1 ? Math.floor(fit) : Math.floor(fit * 1000) / 1000;
}

// `|| 0` turns -0 into 0, which is what JSON gives back anyway.
const round = (v: number) => Math.round(v * 1000) / 1000 || 0;

/** Accumulates min/max per bucket from s16le samples, chunk by chunk. */
export class PeaksAccumulator {
  private readonly values: number[] = [];
  private samples = 0;
  private bucket = -1;
  private min = 0;
  private max = 0;
  /** First sample of the next bucket. */
  private nextBoundary = 0;
  private carry: Buffer | null = null;

  constructor(
    private readonly resolution: number,
    private readonly sampleRate = PEAKS_SAMPLE_RATE,
  ) {}

  push(chunk: Buffer): void {
    let data = chunk;
    if (this.carry) {
      data = Buffer.concat([this.carry, chunk]);
      this.carry = null;
    }
    const whole = data.length - (data.length % 2);
    if (whole < data.length) this.carry = Buffer.from(data.subarray(whole));
    // s16le read through an Int16Array (little-endian, as every platform Electron runs on).
    const view =
      data.byteOffset % 2 === 0
        ? new Int16Array(data.buffer, data.byteOffset, whole / 2)
        : new Int16Array(Uint8Array.prototype.slice.call(data, 0, whole).buffer);
    for (let k = 0; k < view.length; k++) {
      const value = view[k]! / 32768;
      if (this.samples >= this.nextBoundary) {
        this.flush();
        this.bucket = Math.floor((this.samples * this.resolution) / this.sampleRate);
        this.nextBoundary = Math.ceil(((this.bucket + 1) * this.sampleRate) / this.resolution);
        this.min = value;
        this.max = value;
      } else {
        if (value < this.min) this.min = value;
        if (value > this.max) this.max = value;
      }
      this.samples++;
    }
  }

  finish(): WaveformPeaks {
    this.flush();
    this.bucket = -1;
    return { peaks: [this.values], duration: this.samples / this.sampleRate, resolution: this.resolution };
  }

  private flush() {
    if (this.bucket < 0) return;
    // Buckets with no samples (never, for a continuous stream) would be silence.
    while (this.values.length / 2 < this.bucket) this.values.push(0, 0);
    this.values.push(round(this.min), round(this.max));
  }
}

/** Seconds of audio according to ffprobe; null when it cannot tell. */
export async function probeDuration(file: string, options: PeaksOptions = {}): Promise<number | null> {
  try {
    const { stdout } = await run(
      options.ffprobePath ?? (await peaksToolCommand('ffprobe')),
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file],
      {
        signal: options.signal,
      },
    );
    const value = Number(stdout.trim());
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    if (options.signal?.aborted) throw abortError();
    return null;
  }
}

/**
 * Channels of the first audio stream according to ffprobe; null when it cannot tell (not audio, no
 * ffprobe). The upload form offers "Each channel is a speaker" for two or more (decision 0061).
 */
export async function probeChannels(file: string, options: PeaksOptions = {}): Promise<number | null> {
  try {
    const { stdout } = await run(
      options.ffprobePath ?? (await peaksToolCommand('ffprobe')),
      ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=channels', '-of', 'csv=p=0', file],
      { signal: options.signal },
    );
    const value = Number(stdout.trim());
    return Number.isInteger(value) && value > 0 ? value : null;
  } catch {
    if (options.signal?.aborted) throw abortError();
    return null;
  }
}

export function abortError(): Error {
  return Object.assign(new Error('Peaks computation was cancelled.'), { name: 'AbortError' });
}

/** Decodes `file` with ffmpeg and returns its peaks. Rejects with an AbortError when cancelled. */
export async function computePeaks(file: string, options: PeaksOptions = {}): Promise<WaveformPeaks> {
  const duration = await probeDuration(file, options);
  const accumulator = new PeaksAccumulator(chooseResolution(duration ?? 0));
  const ffmpeg = options.ffmpegPath ?? (await peaksToolCommand('ffmpeg'));
  if (options.signal?.aborted) throw abortError();
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      [
        '-nostdin',
        '-v',
        'error',
        '-i',
        file,
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(PEAKS_SAMPLE_RATE),
        '-f',
        's16le',
        '-acodec',
        'pcm_s16le',
        '-',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const onAbort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => accumulator.push(chunk));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
    child.once('error', (error) => {
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code) => {
      options.signal?.removeEventListener('abort', onAbort);
      if (options.signal?.aborted) reject(abortError());
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg could not decode ${path.basename(file)}: ${stderr.trim() || `exit code ${code}`}`));
    });
  });
  const result = accumulator.finish();
  // ffprobe could not tell the length: thin the buckets afterwards if there are too many.
  return duration === null ? downsample(result, chooseResolution(result.duration)) : result;
}

/** Merges buckets so `peaks` has `resolution` buckets per second (a divisor of the current one). */
export function downsample(peaks: WaveformPeaks, resolution: number): WaveformPeaks {
  const factor = Math.max(1, Math.round(peaks.resolution / resolution));
  if (factor === 1) return peaks;
  const source = peaks.peaks[0] ?? [];
  const out: number[] = [];
  for (let i = 0; i < source.length; i += factor * 2) {
    let min = Infinity;
    let max = -Infinity;
    for (let j = i; j < Math.min(source.length, i + factor * 2); j += 2) {
      min = Math.min(min, source[j]!);
      max = Math.max(max, source[j + 1]!);
    }
    out.push(min, max);
  }
  return { peaks: [out], duration: peaks.duration, resolution: peaks.resolution / factor };
}

/**
 * Peaks cached as JSON files in a directory, keyed by transcription and by the audio file's size and
 * modification time. Concurrent requests for the same audio share one computation.
 */
export class PeaksCache {
  private readonly inflight = new Map<string, Promise<WaveformPeaks>>();

  constructor(
    private readonly dir: string,
    private readonly compute: (file: string, options: PeaksOptions) => Promise<WaveformPeaks> = computePeaks,
  ) {}

  async get(id: string, audioFile: string, signal?: AbortSignal): Promise<WaveformPeaks> {
    const stat = await fsp.stat(audioFile);
    const key = `${stat.size}-${Math.floor(stat.mtimeMs)}`;
    const file = this.fileOf(id);
    try {
      const cached = JSON.parse(await fsp.readFile(file, 'utf8')) as { key: string; peaks: WaveformPeaks };
      // Peaks of a short file cached before short files had finer buckets are computed again.
      if (cached.key === key && cached.peaks.resolution * 2 > chooseResolution(cached.peaks.duration))
        return cached.peaks;
    } catch {
      // not cached yet
    }
    const flightKey = `${id}:${key}`;
    let pending = this.inflight.get(flightKey);
    if (!pending) {
      pending = (async () => {
        const peaks = await this.compute(audioFile, { signal });
        await fsp.mkdir(this.dir, { recursive: true });
        const tmp = `${file}.${process.pid}.tmp`;
        await fsp.writeFile(tmp, JSON.stringify({ key, peaks }));
        await fsp.rename(tmp, file);
        return peaks;
      })().finally(() => this.inflight.delete(flightKey));
      this.inflight.set(flightKey, pending);
    }
    return pending;
  }

  async delete(id: string): Promise<void> {
    let file: string;
    try {
      file = this.fileOf(id);
    } catch {
      return; // an id that cannot name a file never had peaks written
    }
    await fsp.rm(file, { force: true });
  }

  private fileOf(id: string) {
    return pathInside(this.dir, `${id}.json`);
  }
}
