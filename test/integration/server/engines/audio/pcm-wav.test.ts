// A WAV that already holds 16 kHz mono s16le samples skips ffmpeg (issue 26 item 5): the decode stage copies
// its data chunk. The copy must be exactly what ffmpeg writes, and everything doubtful must still go to ffmpeg.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FfmpegDecodeStage } from '../../../../../src-server/engines/audio/decode-stage.js';
import { decodeToPcm } from '../../../../../src-server/engines/audio/ffmpeg.js';
import { layoutOf, pcmWavLayout } from '../../../../../src-server/engines/audio/pcm-wav.js';
import { isEngineError } from '../../../../../src-server/domain/engine-error.js';
import { StageTimings } from '../../../../../src-server/domain/stage-timings.js';
import { synthesizeSpeech, toWav16k } from '../../../../support/audio-fixtures.js';
import { tempDir } from '../../../../support/test-server.js';

const dir = tempDir('kikitori-pcm-wav-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let speech16k: string;
let speech32k: string;
beforeAll(async () => {
  speech32k = await synthesizeSpeech('Please call Stella and ask her to bring these things.');
  speech16k = await toWav16k(speech32k);
});

const stage = (maxSeconds = 3600) =>
  new FfmpegDecodeStage({ maxSeconds, minFreeBytes: 0, freeSpace: async () => 1e12 });
const decode = (audioPath: string, pcmPath: string, decoder = stage()) =>
  decoder.decode({
    audioPath,
    pcmPath,
    sizeBytes: fs.statSync(audioPath).size,
    signal: new AbortController().signal,
    timings: new StageTimings(),
    onProgress: () => {},
  });

/** A WAV header + chunks, written by hand, for headers sox does not write. */
function wav(chunks: Array<[string, Buffer]>): Buffer {
  const parts = chunks.flatMap(([id, body]) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, 'latin1');
    head.writeUInt32LE(body.length, 4);
    return body.length % 2 ? [head, body, Buffer.alloc(1)] : [head, body];
  });
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(4 + parts.reduce((n, p) => n + p.length, 0), 4);
  riff.write('WAVE', 8, 'latin1');
  return Buffer.concat([riff, ...parts]);
}
function fmt(o: { tag?: number; channels?: number; rate?: number; bits?: number; extensible?: Buffer } = {}): Buffer {
  const body = Buffer.alloc(o.extensible ? 40 : 16);
  const channels = o.channels ?? 1;
  const rate = o.rate ?? 16000;
  const bits = o.bits ?? 16;
  body.writeUInt16LE(o.tag ?? 1, 0);
  body.writeUInt16LE(channels, 2);
  body.writeUInt32LE(rate, 4);
  body.writeUInt32LE((rate * channels * bits) / 8, 8);
  body.writeUInt16LE((channels * bits) / 8, 12);
  body.writeUInt16LE(bits, 14);
  if (o.extensible) {
    body.writeUInt16LE(22, 16);
    body.writeUInt16LE(bits, 18);
    o.extensible.copy(body, 24);
  }
  return body;
}
const PCM_GUID = Buffer.from('0100000000001000800000aa00389b71', 'hex');
const FLOAT_GUID = Buffer.from('0300000000001000800000aa00389b71', 'hex');

describe('16 kHz mono 16-bit WAV without ffmpeg', () => {
  it('copies the samples of a sox-made 16 kHz WAV, byte for byte what ffmpeg writes', async () => {
    const layout = await pcmWavLayout(speech16k);
    expect(layout).not.toBeNull();
    const copied = path.join(dir, 'copied.pcm');
    const result = await decode(speech16k, copied);
    const viaFfmpeg = path.join(dir, 'ffmpeg.pcm');
    await decodeToPcm(speech16k, viaFfmpeg, { durationSeconds: 0 });
    const a = fs.readFileSync(copied);
    expect(a.length).toBe(layout!.bytes);
    expect(a.equals(fs.readFileSync(viaFfmpeg))).toBe(true);
    expect(result.durationSeconds).toBeCloseTo(a.length / 2 / 16000, 3);
    expect(fs.existsSync(`${copied}.part`)).toBe(false);
  });

  it('finds the data chunk after other chunks (LIST, an odd-sized one), and in WAVE_FORMAT_EXTENSIBLE PCM', async () => {
    const samples = Buffer.alloc(3200);
    for (let i = 0; i < 1600; i++) samples.writeInt16LE(Math.round(8000 * Math.sin(i / 5)), i * 2);
    const file = path.join(dir, 'chunks.wav');
    fs.writeFileSync(
      file,
      wav([
        ['fmt ', fmt()],
        ['LIST', Buffer.from('INFOISFT\x05\x00\x00\x00test\x00', 'latin1')],
        ['odd!', Buffer.from('abc')],
        ['data', samples],
      ]),
    );
    const copied = path.join(dir, 'chunks.pcm');
    expect((await decode(file, copied)).durationSeconds).toBeCloseTo(0.1, 3);
    expect(fs.readFileSync(copied).equals(samples)).toBe(true);

    const extensible = wav([
      ['fmt ', fmt({ tag: 0xfffe, extensible: PCM_GUID })],
      ['data', samples],
    ]);
    expect(layoutOf(extensible, extensible.length)).toEqual({
      offset: extensible.length - samples.length,
      bytes: 3200,
    });
  });

  it('leaves every other WAV to ffmpeg: other rates, stereo, 8-bit, float, a data size past the end, no fmt', async () => {
    const data = Buffer.alloc(320);
    const cases: Buffer[] = [
      wav([
        ['fmt ', fmt({ rate: 44100 })],
        ['data', data],
      ]),
      wav([
        ['fmt ', fmt({ channels: 2 })],
        ['data', data],
      ]),
      wav([
        ['fmt ', fmt({ bits: 8 })],
        ['data', data],
      ]),
      wav([
        ['fmt ', fmt({ tag: 3, bits: 16 })],
        ['data', data],
      ]),
      wav([
        ['fmt ', fmt({ tag: 0xfffe, extensible: FLOAT_GUID })],
        ['data', data],
      ]),
      wav([['data', data]]),
      Buffer.from('RIFF\x00\x00\x00\x00WAVE', 'latin1'),
      Buffer.from('not a wav file at all'),
    ];
    for (const file of cases) expect(layoutOf(file, file.length)).toBeNull();
    // A streaming writer's header (data size 0xFFFFFFFF) is doubtful: ffmpeg reads it.
    const streaming = wav([
      ['fmt ', fmt()],
      ['data', data],
    ]);
    streaming.writeUInt32LE(0xffffffff, streaming.length - data.length - 4);
    expect(layoutOf(streaming, streaming.length)).toBeNull();
    expect(await pcmWavLayout(speech32k)).toBeNull();
    expect(await pcmWavLayout(path.join(dir, 'missing.wav'))).toBeNull();
  });

  it('still decodes a 32 kHz WAV through ffmpeg, and a streaming-header 16 kHz one', async () => {
    const out = path.join(dir, 'resampled.pcm');
    const resampled = await decode(speech32k, out);
    expect(resampled.durationSeconds).toBeGreaterThan(1);
    const streamed = path.join(dir, 'streamed.wav');
    const bytes = fs.readFileSync(speech16k);
    const layout = layoutOf(bytes, bytes.length)!;
    bytes.writeUInt32LE(0xffffffff, layout.offset - 4);
    fs.writeFileSync(streamed, bytes);
    const pcm = path.join(dir, 'streamed.pcm');
    await decode(streamed, pcm);
    expect(fs.readFileSync(pcm).equals(fs.readFileSync(speech16k).subarray(layout.offset))).toBe(true);
  });

  it('holds the duration limit before copying', async () => {
    const pcm = path.join(dir, 'too-long.pcm');
    const error = await decode(speech16k, pcm, stage(1)).catch((e: unknown) => e);
    expect(isEngineError(error, 'bad-input')).toBe(true);
    expect(fs.existsSync(pcm)).toBe(false);
  });
});
