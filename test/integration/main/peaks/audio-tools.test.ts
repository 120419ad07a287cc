import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundledPeaksTool, peaksToolCommand } from '../../../../src-main/peaks/audio-tools.js';
import { computePeaks } from '../../../../src-main/peaks/peaks.js';
import { shortSpeech } from '../main-test-support.js';

describe('ffmpeg for the waveform', () => {
  it('uses the system ffmpeg and ffprobe on PATH when they are there', async () => {
    expect(await peaksToolCommand('ffmpeg')).toBe('ffmpeg');
    expect(await peaksToolCommand('ffprobe')).toBe('ffprobe');
  });

  it('computes the same peaks with the bundled ffmpeg and ffprobe (what macOS and Windows use)', async () => {
    const ffmpegPath = bundledPeaksTool('ffmpeg')!;
    const ffprobePath = bundledPeaksTool('ffprobe')!;
    for (const file of [ffmpegPath, ffprobePath]) fs.accessSync(file, fs.constants.X_OK);
    const wav = await shortSpeech();
    const bundled = await computePeaks(wav, { ffmpegPath, ffprobePath });
    const system = await computePeaks(wav);
    expect(bundled.resolution).toBe(system.resolution);
    expect(bundled.duration).toBeCloseTo(system.duration, 2);
    expect(bundled.peaks[0]!.length).toBe(system.peaks[0]!.length);
  });
});
