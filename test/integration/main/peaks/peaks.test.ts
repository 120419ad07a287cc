import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import {
  chooseResolution,
  computePeaks,
  downsample,
  MAX_BUCKETS,
  PeaksAccumulator,
  PeaksCache,
  probeChannels,
} from '../../../../src-main/peaks/peaks.js';
import { FileHandles } from '../../../../src-main/uploads/file-handles.js';
import { tempDir } from '../../../support/test-server.js';
import { shortSpeech } from '../main-test-support.js';

const run = promisify(execFile);

describe('waveform peaks', () => {
  const dir = tempDir('kikitori-peaks-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('decodes real speech into min/max pairs at 50 buckets per second', async () => {
    const wav = await shortSpeech();
    const peaks = await computePeaks(wav);
    expect(peaks.resolution).toBe(50);
    const [channel] = peaks.peaks;
    expect(peaks.duration).toBeGreaterThan(1);
    expect(channel!.length).toBe(2 * Math.ceil(peaks.duration * 50));
    for (let i = 0; i < channel!.length; i += 2) {
      expect(channel![i]!).toBeLessThanOrEqual(channel![i + 1]!);
      expect(Math.abs(channel![i]!)).toBeLessThanOrEqual(1);
    }
    expect(Math.max(...channel!)).toBeGreaterThan(0.05); // there is speech in there
  });

  // The tryout's 0.2-second file: 10 buckets stretched over the waveform's width drew a solid slab.
  it('gives a file under a second a second of buckets, its own shape, and recomputes ones cached coarser', async () => {
    const speech = await shortSpeech();
    const short = path.join(dir, 'short.wav');
    // 0.2 s from the middle of a word: loud and quiet parts both.
    await run('ffmpeg', ['-v', 'error', '-y', '-ss', '0.5', '-t', '0.2', '-i', speech, short]);
    const peaks = await computePeaks(short);
    expect(peaks.duration).toBeCloseTo(0.2, 2);
    expect(peaks.resolution).toBe(250);
    const channel = peaks.peaks[0]!;
    expect(channel.length).toBe(2 * 50);
    // Not a slab: the loudest bucket is well above the quietest.
    const heights = Array.from({ length: channel.length / 2 }, (_, i) => channel[2 * i + 1]! - channel[2 * i]!);
    expect(Math.min(...heights)).toBeLessThan(Math.max(...heights) / 2);
    expect(chooseResolution(0.2)).toBe(250);
    expect(chooseResolution(0.01)).toBe(2000);
    expect(chooseResolution(1)).toBe(50);

    // Peaks cached by an earlier version at 50 a second are computed again.
    const cacheDir = path.join(dir, 'peaks-cache');
    let computed = 0;
    const coarse = new PeaksCache(cacheDir, async () => {
      computed++;
      return { peaks: [channel.slice(0, 20)], duration: peaks.duration, resolution: 50 };
    });
    await coarse.get('short', short);
    const cache = new PeaksCache(cacheDir, async (file) => {
      computed++;
      return computePeaks(file);
    });
    expect((await cache.get('short', short)).resolution).toBe(250);
    expect((await cache.get('short', short)).resolution).toBe(250);
    expect(computed).toBe(2);
  });

  it('tells the channels of a file, and offers them with its handle so the form can ask about multichannel', async () => {
    const mono = await shortSpeech();
    const stereo = path.join(dir, 'call.m4a');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      mono,
      '-i',
      mono,
      '-filter_complex',
      '[0:a][1:a]join=inputs=2:channel_layout=stereo',
      stereo,
    ]);
    const notAudio = path.join(dir, 'notes.txt');
    fs.writeFileSync(notAudio, 'not audio');
    expect(await probeChannels(mono)).toBe(1);
    expect(await probeChannels(stereo)).toBe(2);
    expect(await probeChannels(notAudio)).toBeNull();
    const offers = await new FileHandles(Date.now, (file) => probeChannels(file)).offer([stereo, mono, notAudio, dir]);
    expect(offers.map((offer) => offer.channels)).toEqual([2, 1, undefined, undefined]);
  });

  it('keeps a 3-hour file under 2 MB of JSON', () => {
    const duration = 3 * 3600;
    const resolution = chooseResolution(duration);
    expect(resolution).toBeLessThan(50);
    const buckets = Math.ceil(duration * resolution);
    expect(buckets).toBeLessThanOrEqual(MAX_BUCKETS);
    // Worst case: every value needs a sign and three decimals.
    const json = JSON.stringify({ peaks: [Array.from({ length: buckets * 2 }, () => -0.999)], duration, resolution });
    expect(json.length).toBeLessThan(2 * 1024 * 1024);
    expect(chooseResolution(60)).toBe(50);
    expect(chooseResolution(500_000)).toBeLessThan(1);
  });

  it('accumulates buckets across chunks split mid-sample', () => {
    const acc = new PeaksAccumulator(2, 8); // 2 buckets per second of 8 samples: 4 samples a bucket
    const samples = Buffer.alloc(16);
    [0, 16384, -16384, 0, 32767, 0, 0, -32768].forEach((v, i) => samples.writeInt16LE(v, i * 2));
    acc.push(samples.subarray(0, 5));
    acc.push(samples.subarray(5));
    expect(acc.finish()).toEqual({ peaks: [[-0.5, 0.5, -1, 1]], duration: 1, resolution: 2 });
    expect(downsample({ peaks: [[-0.5, 0.5, -1, 0.2, -0.1, 0.1]], duration: 1.5, resolution: 2 }, 1)).toEqual({
      peaks: [[-1, 0.5, -0.1, 0.1]],
      duration: 1.5,
      resolution: 1,
    });
  });

  it('is cancellable', async () => {
    const long = path.join(dir, 'long.wav');
    await run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', long, 'synth', '120', 'sine', '440']);
    const controller = new AbortController();
    const pending = computePeaks(long, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('caches by file and recomputes when the audio changes', async () => {
    let computed = 0;
    const cache = new PeaksCache(path.join(dir, 'cache'), async (file, options) => {
      computed++;
      return computePeaks(file, options);
    });
    const audio = path.join(dir, 'a.wav');
    fs.copyFileSync(await shortSpeech(), audio);
    const [first, concurrent] = await Promise.all([cache.get('t1', audio), cache.get('t1', audio)]);
    expect(concurrent).toEqual(first);
    expect(await cache.get('t1', audio)).toEqual(first);
    expect(computed).toBe(1);
    fs.appendFileSync(audio, Buffer.alloc(3200));
    await cache.get('t1', audio);
    expect(computed).toBe(2);
    await cache.delete('t1');
    expect(fs.readdirSync(path.join(dir, 'cache'))).toEqual([]);
  });
});
