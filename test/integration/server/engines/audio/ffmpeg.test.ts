import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeFailure,
  decodeToPcm,
  PCM_BYTES_PER_SECOND,
  probeAudio,
  SAMPLE_RATE,
} from '../../../../../src-server/engines/audio/ffmpeg.js';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { audioDuration, encodeAudio, makeCorruptFile, synthesizeSpeech } from '../../../../support/audio-fixtures.js';

let dir: string;
let wav: string; // festival: 32 kHz mono
let wavSeconds: number;

beforeAll(async () => {
  dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'kikitori-ffmpeg-'));
  wav = await synthesizeSpeech('Please call Stella and ask her to bring these things.');
  wavSeconds = await audioDuration(wav);
});
afterAll(() => fsp.rm(dir, { recursive: true, force: true }));

describe('probeAudio', () => {
  it('describes a WAV file', async () => {
    const probe = await probeAudio(wav);
    expect(probe).toMatchObject({ formatName: 'wav', codecName: 'pcm_s16le', sampleRate: 32000, channels: 1 });
    expect(probe.durationSeconds).toBeCloseTo(wavSeconds, 2);
  });

  it('describes compressed files', async () => {
    const mp3 = await encodeAudio(wav, path.join(dir, 'a.mp3'), [
      '-ac',
      '2',
      '-ar',
      '44100',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '96k',
    ]);
    const ogg = await encodeAudio(wav, path.join(dir, 'a.ogg'), ['-ar', '48000', '-c:a', 'libopus']);
    expect(await probeAudio(mp3)).toMatchObject({
      formatName: 'mp3',
      codecName: 'mp3',
      sampleRate: 44100,
      channels: 2,
    });
    const probe = await probeAudio(ogg);
    expect(probe).toMatchObject({ formatName: 'ogg', codecName: 'opus', sampleRate: 48000, channels: 1 });
    expect(probe.durationSeconds).toBeCloseTo(wavSeconds, 1);
  });

  it('measures the duration of a streamed WebM whose header has none (MediaRecorder uploads)', async () => {
    const webm = path.join(dir, 'stream.webm');
    // Written to a pipe, so the muxer cannot seek back to store duration or cues.
    execFileSync('sh', ['-c', `ffmpeg -v error -i "${wav}" -c:a libopus -f webm pipe:1 > "${webm}"`]);
    const probe = await probeAudio(webm);
    expect(probe.codecName).toBe('opus');
    expect(probe.durationSeconds).toBeCloseTo(wavSeconds, 1);
  });

  it('rejects a corrupt file as bad input about the file, saying why', async () => {
    const bad = await makeCorruptFile(path.join(dir, 'corrupt.wav'));
    const err = await probeAudio(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect(err).toMatchObject({ kind: 'bad-input', field: 'file' });
    // In the user's terms: no tool names, no raw tool output, no server paths; ffprobe's words are in the detail.
    expect((err as Error).message).toBe(
      'The file is not an audio or video file this server can read. Upload a recording in a common format, e.g. WAV, MP3, M4A, FLAC, Ogg or WebM.',
    );
    expect((err as EngineError).detail).toMatch(/^ffprobe: .+/);
    expect((err as EngineError).detail).not.toContain(dir);
  });

  it('rejects text and video-only files', async () => {
    const text = path.join(dir, 'notes.txt');
    await fsp.writeFile(text, 'hello, this is not audio\n');
    const textError = (await probeAudio(text).catch((e: unknown) => e)) as EngineError;
    expect(textError).toMatchObject({ kind: 'bad-input', field: 'file' });
    expect(textError.message).not.toMatch(/ffprobe|ffmpeg|tty/);
    expect(textError.detail).toMatch(/^ffprobe/);

    const video = path.join(dir, 'video.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=d=1:s=64x64', '-c:v', 'mpeg4', video]);
    const videoError = (await probeAudio(video).catch((e: unknown) => e)) as EngineError;
    expect(videoError.message).toBe(
      'The file contains no sound to transcribe (it is a video without an audio track). Upload a recording that has sound.',
    );
    expect(videoError.detail).toMatch(/no audio stream; streams: video/);
  });
});

describe('hostile inputs', () => {
  /** Playlists that make ffmpeg read other files on the server, or URLs, in place of the upload. */
  const playlists = () => ({
    'concat of a local file': `ffconcat version 1.0\nfile '${path.basename(wav)}'\n`,
    'concat of a URL': "ffconcat version 1.0\nfile 'http://127.0.0.1:9/secret.wav'\n",
    'HLS of a local file': `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10,\n${wav}\n#EXT-X-ENDLIST\n`,
    'HLS of a URL':
      '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10,\nhttp://127.0.0.1:9/secret.wav\n#EXT-X-ENDLIST\n',
  });

  it('the concat fixture really reads the other file when ffmpeg is not restricted', async () => {
    const playlist = path.join(path.dirname(wav), `playlist-${process.pid}.ffconcat`);
    await fsp.writeFile(playlist, playlists()['concat of a local file']);
    try {
      const out = execFileSync('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'format=format_name',
        '-of',
        'csv=p=0',
        playlist,
      ])
        .toString()
        .trim();
      expect(out).toBe('concat');
    } finally {
      await fsp.rm(playlist, { force: true });
    }
  });

  const names = ['concat of a local file', 'concat of a URL', 'HLS of a local file', 'HLS of a URL'] as const;
  for (const name of names) {
    it(`refuses a ${name} as bad input, in probe and in decode`, async () => {
      const text = playlists()[name];
      // Beside the audio it names, as an upload with no extension, the way storage keeps it.
      const playlist = path.join(path.dirname(wav), `upload-${process.pid}-${name.replaceAll(' ', '-')}`);
      await fsp.writeFile(playlist, text);
      try {
        const err = await probeAudio(playlist).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(EngineError);
        expect(err).toMatchObject({ kind: 'bad-input', field: 'file' });
        const out = path.join(dir, `${name}.pcm`);
        await expect(decodeToPcm(playlist, out, { durationSeconds: 10 })).rejects.toMatchObject({ kind: 'bad-input' });
        expect(fs.existsSync(out)).toBe(false);
        expect(fs.existsSync(`${out}.part`)).toBe(false);
      } finally {
        await fsp.rm(playlist, { force: true });
      }
    });
  }
});

describe('decodeToPcm', () => {
  it('decodes mp3 (stereo 44.1 kHz) to 16 kHz mono s16le with progress', async () => {
    const mp3 = await encodeAudio(wav, path.join(dir, 'b.mp3'), ['-ac', '2', '-ar', '44100', '-c:a', 'libmp3lame']);
    const out = path.join(dir, 'b.pcm');
    const seen: number[] = [];
    const { durationSeconds } = await decodeToPcm(mp3, out, { onProgress: (f) => seen.push(f) });

    expect(SAMPLE_RATE).toBe(16000);
    expect(fs.statSync(out).size).toBe(durationSeconds * PCM_BYTES_PER_SECOND);
    expect(durationSeconds).toBeCloseTo(wavSeconds, 1); // mp3 adds encoder padding only
    expect(fs.existsSync(`${out}.part`)).toBe(false);
    expect(seen.at(-1)).toBe(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // Real audio, not silence: RMS well above zero.
    const pcm = new Int16Array(new Uint8Array(fs.readFileSync(out)).buffer); // copy: aligned, exact size
    const rms = Math.sqrt(pcm.reduce((s, x) => s + x * x, 0) / pcm.length);
    expect(rms).toBeGreaterThan(300);
  });

  it('decodes ogg/opus', async () => {
    const ogg = await encodeAudio(wav, path.join(dir, 'c.ogg'), ['-c:a', 'libopus']);
    const { durationSeconds } = await decodeToPcm(ogg, path.join(dir, 'c.pcm'));
    expect(durationSeconds).toBeCloseTo(wavSeconds, 1);
  });

  it('fails permanently on a corrupt file and leaves no partial output', async () => {
    const bad = await makeCorruptFile(path.join(dir, 'corrupt2.wav'));
    const out = path.join(dir, 'corrupt2.pcm');
    // durationSeconds given: skip the probe, so ffmpeg itself meets the garbage.
    await expect(decodeToPcm(bad, out, { durationSeconds: 10 })).rejects.toMatchObject({ kind: 'bad-input' });
    expect(fs.existsSync(out)).toBe(false);
    expect(fs.existsSync(`${out}.part`)).toBe(false);
  });

  it('abort kills ffmpeg and removes the partial file', async () => {
    // A FIFO nobody writes to: ffmpeg blocks on it forever, so only the abort can end it.
    const fifo = path.join(dir, 'never.fifo');
    execFileSync('mkfifo', [fifo]);
    const out = path.join(dir, 'never.pcm');
    const controller = new AbortController();
    const pending = decodeToPcm(fifo, out, { durationSeconds: 10, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by test')), 200);
    await expect(pending).rejects.toThrow('cancelled by test');
    expect(fs.existsSync(`${out}.part`)).toBe(false);
    expect(fs.existsSync(out)).toBe(false);
  });
});

// Found by `npm run drill` on a full tmpfs: a decode that met ENOSPC midway (the check before decoding
// cannot see a header that understates the length, nor another writer) failed with "a problem on the
// server" instead of saying the disk is full. The drill covers the real full disk; this, ffmpeg's words.
describe('decodeFailure', () => {
  it('tells a full disk in the words of the check before decoding, retryable, the path and ffmpeg in the detail', () => {
    const reason = 'Error submitting a packet to the muxer: No space left on device; Error muxing a packet';
    const error = decodeFailure(reason, null, 228, '/data/work/abc.pcm.part');
    expect(error).toMatchObject({ kind: 'transient' });
    expect(error.message).toBe(
      "There is not enough free disk space on the server to convert this recording. Try again later, or ask the server's administrator to free some space.",
    );
    expect(error.detail).toContain('/data/work/abc.pcm.part');
    expect(error.detail).toContain('No space left on device');
  });

  it('keeps other machine problems retryable, and the file at fault otherwise', () => {
    expect(decodeFailure('Too many open files', null, 1, 'x.part')).toMatchObject({
      kind: 'transient',
      message: 'The audio could not be decoded because of a problem on the server. Try again later.',
    });
    expect(decodeFailure('', 'SIGKILL', null, 'x.part')).toMatchObject({ kind: 'transient' });
    expect(decodeFailure('Invalid data found when processing input', null, 1, 'x.part')).toMatchObject({
      kind: 'bad-input',
      message:
        'The audio could not be decoded: the file may be damaged or incomplete. Export the recording again, e.g. as WAV, MP3 or M4A, and upload that.',
      detail: 'ffmpeg: Invalid data found when processing input',
    });
  });
});
