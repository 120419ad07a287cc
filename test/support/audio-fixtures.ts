// Real audio for tests: speech synthesized with festival (HTS voice cmu_us_slt_arctic, clear enough
// for pocketsphinx) or espeak-ng, glued with sox. Generated files are cached in the OS temp dir, once per
// machine, keyed by a hash of what produced them (text, voice, input bytes, tool versions), so reruns and
// parallel test files reuse them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileCache } from '../../bench/file-cache.js';

const run = promisify(execFile);

/** Bump to invalidate every cached fixture after changing how they are made. */
const CACHE_VERSION = 1;
export const FIXTURE_CACHE_DIR = path.join(os.tmpdir(), 'kikitori-test-audio');

export type Voice = 'festival' | 'espeak';

const cache = fileCache(FIXTURE_CACHE_DIR, CACHE_VERSION);

/**
 * The versions of the tools that make the fixtures, asked once per process: part of every key, so a
 * machine whose festival, espeak-ng or sox changes makes new files instead of reusing the old ones.
 */
let toolVersions: Promise<string[]> | undefined;
function versionsOfTools(): Promise<string[]> {
  toolVersions ??= Promise.all(
    ['festival', 'espeak-ng', 'sox'].map((tool) =>
      run(tool, ['--version']).then(
        ({ stdout }) => stdout.trim(),
        () => `${tool} unavailable`,
      ),
    ),
  );
  return toolVersions;
}

/** The cached file for `key` and the tool versions: content-addressed, written atomically (temp file + rename). */
const cached: typeof cache = async (key, ext, make) => cache([...(await versionsOfTools()), ...key], ext, make);

async function copyTo(src: string, out?: string): Promise<string> {
  if (!out) return src;
  await fsp.copyFile(src, out);
  return out;
}

/** Hash of a file's bytes, so derived fixtures are keyed by content rather than by path. */
async function contentHash(file: string): Promise<string> {
  return createHash('sha256')
    .update(await fsp.readFile(file))
    .digest('hex');
}

/**
 * Speaks `text` into a WAV (festival: 32 kHz mono; espeak: 22.05 kHz mono). Returns the path:
 * `outWavPath` when given (a copy of the cached file), else the cache file itself (do not modify).
 */
export async function synthesizeSpeech(
  text: string,
  outWavPath?: string,
  /** espeakVoice: espeak-ng's voice for another language ("es", "fi+m7"...), default en-us; espeakSpeed: words per minute. */
  options: { voice?: Voice; espeakVoice?: string; espeakSpeed?: number } = {},
): Promise<string> {
  const voice = options.voice ?? 'festival';
  const espeakVoice = options.espeakVoice ?? 'en-us';
  const speed = options.espeakSpeed ? ['-s', String(options.espeakSpeed)] : [];
  const key =
    espeakVoice === 'en-us' && speed.length === 0 ? ['tts', voice, text] : ['tts', voice, espeakVoice, ...speed, text];
  const file = await cached(key, 'wav', async (tmp) => {
    if (voice === 'espeak') {
      await run('espeak-ng', ['-v', espeakVoice, ...speed, '-w', tmp, '--', text]);
    } else {
      const textFile = `${tmp}.txt`;
      await fsp.writeFile(textFile, text);
      try {
        await run('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', textFile, '-o', tmp]);
      } finally {
        await fsp.rm(textFile, { force: true });
      }
    }
  });
  return copyTo(file, outWavPath);
}

/** Resamples any WAV to 16 kHz mono 16-bit WAV (sox refuses to concatenate mixed rates). */
export async function toWav16k(input: string): Promise<string> {
  return cached(['wav16k', await contentHash(input)], 'wav', (tmp) =>
    run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', tmp]).then(() => undefined),
  );
}

/** parts[0] + silence + parts[1] + silence + ... as a 16 kHz mono WAV. */
export async function concatWithSilence(parts: string[], silenceSeconds: number, out?: string): Promise<string> {
  const normalized = await Promise.all(parts.map(toWav16k));
  const hashes = await Promise.all(normalized.map(contentHash));
  const file = await cached(['concat', silenceSeconds, ...hashes], 'wav', async (tmp) => {
    const silence = `${tmp}.silence.wav`;
    try {
      await run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', String(silenceSeconds)]);
      const inputs = normalized.flatMap((p, i) => (i === 0 ? [p] : [silence, p]));
      await run('sox', [...inputs, tmp]);
    } finally {
      await fsp.rm(silence, { force: true });
    }
  });
  return copyTo(file, out);
}

/** Raw 16 kHz mono s16le PCM of an audio file (what decodeToPcm produces), made with sox. */
export async function pcmOf(input: string): Promise<string> {
  return cached(['pcm', await contentHash(input)], 'pcm', (tmp) =>
    run('sox', [input, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', tmp]).then(
      () => undefined,
    ),
  );
}

/** Re-encodes with ffmpeg, e.g. encodeAudio(wav, 'x.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']). */
export async function encodeAudio(input: string, out: string, codecArgs: string[]): Promise<string> {
  await run('ffmpeg', ['-nostdin', '-v', 'error', '-y', '-i', input, ...codecArgs, out]);
  return out;
}

/** Seconds of audio according to sox. */
export async function audioDuration(file: string): Promise<number> {
  const { stdout } = await run('soxi', ['-D', file]);
  return Number(stdout.trim());
}

/**
 * A file that claims to be a WAV (RIFF header) but whose header fields and payload are garbage,
 * deterministic so ffprobe's complaint is stable.
 */
export async function makeCorruptFile(file: string): Promise<string> {
  const body = Buffer.alloc(4096);
  let x = 0x2545f491;
  for (let i = 0; i < body.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    body[i] = x & 0xff;
  }
  await fsp.writeFile(file, Buffer.concat([Buffer.from('RIFF\x00\x10\x00\x00WAVEfmt ', 'latin1'), body]));
  return file;
}

/**
 * 150 s of noise as FLAC (4.5 MB: over the size that is probed first) whose STREAMINFO claims 2 s:
 * ffprobe reports 2 s, ffmpeg decodes all 150 s.
 */
export async function understatedFlac(file: string): Promise<string> {
  await run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', file, 'synth', '150', 'whitenoise']);
  const data = await fsp.readFile(file);
  // STREAMINFO follows "fLaC" and its 4-byte block header; its bytes 10..17 end with the 36-bit sample count.
  const at = 8 + 10;
  const packed = data.readBigUInt64BE(at);
  const mask = (1n << 36n) - 1n;
  data.writeBigUInt64BE((packed & ~mask) | 32_000n, at);
  await fsp.writeFile(file, data);
  return file;
}
