// Audio probing and conversion through the ffmpeg/ffprobe command-line tools. Everything after the
// CONVERTING stage works on raw 16 kHz mono s16le PCM, the format the speech engines expect.
import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import { EngineError } from '../../domain/engine-error.js';
import { abortReason } from '../../../src-shared/abort.js';
import { forgetAudioTool, locateAudioTool, type AudioTool } from './ffmpeg-tools.js';

/** Sample rate of the PCM files this module writes (mono, signed 16-bit little-endian). */
export const SAMPLE_RATE = 16000;
/** Bytes per second of that PCM. */
export const PCM_BYTES_PER_SECOND = SAMPLE_RATE * 2;

export interface AudioProbe {
  durationSeconds: number;
  /** ffprobe's format_name, e.g. "wav", "mov,mp4,m4a,3gp,3g2,mj2". */
  formatName: string;
  /** Codec of the first audio stream, e.g. "pcm_s16le", "mp3", "opus". */
  codecName: string;
  sampleRate: number;
  channels: number;
}

export interface DecodeOptions {
  signal?: AbortSignal;
  /** Called with 0..1 as decoding advances (ffmpeg out_time / duration). */
  onProgress?: (fraction: number) => void;
  /** Skip the internal probe when the caller already has the duration. */
  durationSeconds?: number;
  /**
   * Stop decoding a second past this length (ffmpeg `-t`), whatever the file's header claims: a
   * decoded duration over maxSeconds then tells the caller the recording is longer than that.
   */
  maxSeconds?: number;
  /** Keep only this channel (0 = the first) instead of mixing all of them down. */
  channel?: number;
  /** Only this part of the recording, in seconds (a voice sample, decision 0065); ffmpeg seeks to its start. */
  range?: { start: number; end: number };
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderrLines: string[];
}

/**
 * Runs a tool to completion. stderr keeps only its last lines (ffmpeg can log a line per packet on
 * a damaged file); stdout is either collected (ffprobe JSON) or handed line by line to `onLine`.
 * Aborting kills the child and rejects with signal.reason.
 */
async function run(
  tool: AudioTool,
  args: string[],
  signal: AbortSignal | undefined,
  onLine?: (line: string) => void,
): Promise<RunResult> {
  const bin = (await locateAudioTool(tool)).command;
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });

    let stdout = '';
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (onLine) {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop()!;
        for (const line of lines) onLine(line.trim());
      } else {
        stdout += chunk;
      }
    });
    const stderrLines: string[] = [];
    let partial = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop()!;
      stderrLines.push(...lines.map((l) => l.trim()).filter(Boolean));
      if (stderrLines.length > 40) stderrLines.splice(0, stderrLines.length - 40);
    });

    child.on('error', (err: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', onAbort);
      // ENOENT = the tool went away after it was located: a deployment problem, not the user's file.
      // Search again next time (another one may be there); this attempt is retried by the job runner.
      if (err.code === 'ENOENT') forgetAudioTool(tool);
      reject(
        err.code === 'ENOENT'
          ? new Error(`${bin} is no longer installed (kikitori-server engines says which ${tool} is used)`)
          : err,
      );
    });
    child.on('close', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(abortReason(signal));
      if (partial.trim()) stderrLines.push(partial.trim());
      resolve({ code, signal: sig, stdout, stderrLines });
    });
  });
}

/** ffmpeg log lines without the input path and "[wav @ 0x55d...]" context noise. */
function cleanLines(lines: string[], inputPath: string): string[] {
  return lines
    .map((l) =>
      l
        .split(`${inputPath}: `)
        .join('')
        .replace(/^\[(\w+) @ 0x[0-9a-f]+\]\s*/, '$1: '),
    )
    .filter((l) => l && !/^(Press \[q\]|Stream mapping|Input #|Output #|\s*Duration:)/.test(l));
}

/**
 * Input options for every ffprobe/ffmpeg run on an upload. Only local files are read, and only through
 * demuxers of audio and video containers: a playlist or script format (concat, HLS, DASH, image2...)
 * would make ffmpeg open other files on the server or URLs on the network on the uploader's behalf.
 * `mov` also matches mp4/m4a/3gp, `matroska` webm; `pipe` is not needed since inputs are always files.
 */
export const INPUT_FORMATS = [
  'wav',
  'w64',
  'aiff',
  'au',
  'caf',
  'flac',
  'mp3',
  'aac',
  'ac3',
  'eac3',
  'dts',
  'ogg',
  'wv',
  'ape',
  'tta',
  'amr',
  'amrnb',
  'amrwb',
  'mov',
  'matroska',
  'webm',
  'asf',
  'avi',
  'flv',
  'mpeg',
  'mpegts',
] as const;
const SAFE_INPUT = ['-protocol_whitelist', 'file', '-format_whitelist', INPUT_FORMATS.join(',')];

/** ffmpeg's own wording when an input's format or protocol is refused by SAFE_INPUT. */
const REFUSED_INPUT = /not on whitelist/;

/**
 * What users read when a file cannot be used, in their terms: the tool (ffprobe, ffmpeg) and its raw
 * output go into the error's detail, which the job runner and the error handler log.
 */
const NOT_READABLE =
  'The file is not an audio or video file this server can read. Upload a recording in a common format, e.g. WAV, MP3, M4A, FLAC, Ogg or WebM.';
const EXPORT_AGAIN =
  ': the file may be damaged or incomplete. Export the recording again, e.g. as WAV, MP3 or M4A, and upload that.';

/** The upload is not audio this server can read: a media-type problem about the uploaded file. */
const notAudio = (message: string, detail?: string) => new EngineError('bad-input', message, { field: 'file', detail });

/** Probes the first audio stream. Throws a bad-input EngineError for anything ffmpeg cannot use. */
export async function probeAudio(path: string, signal?: AbortSignal): Promise<AudioProbe> {
  try {
    await fsp.access(path);
  } catch {
    throw new EngineError('bad-input', 'The audio file is missing.', { detail: `no file at ${path}` });
  }
  const res = await run(
    'ffprobe',
    ['-v', 'error', ...SAFE_INPUT, '-print_format', 'json', '-show_format', '-show_streams', path],
    signal,
  );
  const reason = cleanLines(res.stderrLines, path)[0];
  if (res.code !== 0 && res.stderrLines.some((line) => REFUSED_INPUT.test(line))) {
    throw notAudio(
      'The file is not an audio or video file this server reads (it looks like a playlist or another non-media format). Upload the audio itself, e.g. WAV, MP3, M4A, FLAC, Ogg or WebM.',
      res.stderrLines.join('\n'),
    );
  }
  if (res.code !== 0) {
    throw notAudio(NOT_READABLE, `ffprobe: ${reason ?? `exit code ${res.code}`}`);
  }
  interface ProbeStream {
    codec_type?: string;
    codec_name?: string;
    sample_rate?: string | number;
    channels?: number;
    duration?: string | number;
  }
  type Json = { streams?: ProbeStream[]; format?: { format_name?: string; duration?: string | number } };
  let json: Json;
  try {
    json = JSON.parse(res.stdout) as Json;
  } catch {
    throw notAudio(NOT_READABLE, `ffprobe printed no JSON: ${res.stdout.slice(0, 300)}`);
  }
  // A text file probes fine as format "tty"; an empty "{}" means ffprobe found no container at all.
  if (!json.format) {
    throw notAudio(NOT_READABLE, `ffprobe found no container: ${reason ?? 'unknown format'}`);
  }
  const audio = json.streams?.find((s) => s.codec_type === 'audio');
  const formatName = json.format.format_name ?? 'unknown';
  if (!audio) {
    const kinds = [...new Set(json.streams?.map((s) => s.codec_type ?? 'unknown') ?? [])];
    throw notAudio(
      `The file contains no sound to transcribe${kinds.includes('video') ? ' (it is a video without an audio track)' : ''}. Upload a recording that has sound.`,
      `ffprobe: format ${formatName}, no audio stream${kinds.length ? `; streams: ${kinds.join(', ')}` : ''}`,
    );
  }
  const sampleRate = Number(audio.sample_rate);
  const channels = Number(audio.channels);
  if (!(sampleRate > 0) || !(channels > 0)) {
    throw notAudio(
      `The file's sound track cannot be read${EXPORT_AGAIN}`,
      `ffprobe: codec ${audio.codec_name ?? 'unknown'}, no sample rate or channels`,
    );
  }
  let durationSeconds = Number(audio.duration ?? json.format.duration);
  // MediaRecorder WebM and some streams carry no duration: measure it by remuxing (no decode, fast).
  if (!Number.isFinite(durationSeconds)) durationSeconds = await measureDuration(path, signal);
  return { durationSeconds, formatName, codecName: audio.codec_name ?? 'unknown', sampleRate, channels };
}

async function measureDuration(path: string, signal?: AbortSignal): Promise<number> {
  let seconds = 0;
  const res = await run(
    'ffmpeg',
    [
      '-nostdin',
      '-v',
      'error',
      ...SAFE_INPUT,
      '-i',
      path,
      '-map',
      '0:a:0',
      '-c',
      'copy',
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ],
    signal,
    (line) => {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m) seconds = Number(m[1]) / 1e6;
    },
  );
  if (res.code !== 0) {
    throw new EngineError('bad-input', `The file's sound track cannot be read${EXPORT_AGAIN}`, {
      detail: `ffmpeg (measuring the duration): ${cleanLines(res.stderrLines, path).slice(-2).join('; ') || `exit code ${res.code}`}`,
    });
  }
  return seconds;
}

// Failures caused by the machine rather than the file: let the job runner retry them. (Not ENOMEM:
// ffmpeg reports "Cannot allocate memory" for absurd sizes read from a corrupt header.)
const TRANSIENT = /No space left on device|Permission denied|Read-only file system|Too many open files/i;
const DISK_FULL = /No space left on device/i;

/**
 * What a failed decode tells the user, from ffmpeg's last error lines: a full disk (the header
 * understated the length, or another writer took the space) in the same words as the check before
 * decoding; another machine problem as retryable; anything else as the file's fault.
 */
export function decodeFailure(
  reason: string,
  signal: NodeJS.Signals | null,
  code: number | null,
  partPath: string,
): EngineError {
  if (DISK_FULL.test(reason)) {
    return new EngineError(
      'transient',
      `There is not enough free disk space on the server to convert this recording. Try again later, or ask the server's administrator to free some space.`,
      {
        detail: `ffmpeg failed writing ${partPath} (${reason})`,
      },
    );
  }
  // Killed by a signal we did not send (OOM killer...) or a machine problem: retryable.
  if (signal || TRANSIENT.test(reason)) {
    return new EngineError(
      'transient',
      'The audio could not be decoded because of a problem on the server. Try again later.',
      {
        detail: `ffmpeg failed (${signal ?? reason})`,
      },
    );
  }
  return new EngineError('bad-input', `The audio could not be decoded${EXPORT_AGAIN}`, {
    detail: `ffmpeg: ${reason || `exit code ${code}`}`,
  });
}

/**
 * Decodes the first audio stream of `inputPath` to raw s16le 16 kHz mono at `outputPath` (all channels
 * mixed down, or the one `options.channel`).
 * ffmpeg streams to `<outputPath>.part`, renamed on success, so the final name never holds a
 * partial file. Returns the decoded duration (exact, from the byte count).
 */
export async function decodeToPcm(
  inputPath: string,
  outputPath: string,
  options: DecodeOptions = {},
): Promise<{ durationSeconds: number }> {
  const { signal, onProgress } = options;
  const duration = options.durationSeconds ?? (await probeAudio(inputPath, signal)).durationSeconds;
  const partPath = `${outputPath}.part`;
  const args = [
    '-nostdin',
    '-hide_banner',
    '-v',
    'error',
    '-y',
    ...SAFE_INPUT,
    ...(options.range ? ['-ss', options.range.start.toFixed(3)] : []),
    '-i',
    inputPath,
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    // One channel picked out with pan (its gain unchanged), or all of them mixed down.
    ...(options.channel === undefined ? ['-ac', '1'] : ['-af', `pan=mono|c0=c${options.channel}`]),
    '-ar',
    String(SAMPLE_RATE),
    '-c:a',
    'pcm_s16le',
    '-f',
    's16le',
    ...(options.maxSeconds === undefined ? [] : ['-t', String(options.maxSeconds + 1)]),
    ...(options.range ? ['-t', (options.range.end - options.range.start).toFixed(3)] : []),
    '-progress',
    'pipe:1',
    '-nostats',
    partPath,
  ];
  let last = -1;
  const report = (fraction: number) => {
    // ffmpeg reports twice a second; only pass on real movement.
    if (onProgress && fraction > last) onProgress((last = fraction));
  };
  try {
    const res = await run('ffmpeg', args, signal, (line) => {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m && duration > 0) report(Math.min(1, Number(m[1]) / 1e6 / duration));
    });
    const reason = cleanLines(res.stderrLines, inputPath).slice(-3).join('; ');
    if (res.code !== 0) {
      throw decodeFailure(reason, res.signal, res.code, partPath);
    }
    await fsp.rename(partPath, outputPath);
  } catch (err) {
    await fsp.rm(partPath, { force: true });
    throw err;
  }
  report(1);
  const { size } = await fsp.stat(outputPath);
  return { durationSeconds: size / PCM_BYTES_PER_SECOND };
}
