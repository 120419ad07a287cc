// The duration and disk limits of the CONVERTING stage, and ffmpeg's -t against a header that lies.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkDecodedDuration,
  checkDuration,
  describeDuration,
  ensureDecodeSpace,
} from '../../../../../src-server/engines/audio/audio-limits.js';
import { decodeToPcm, probeAudio } from '../../../../../src-server/engines/audio/ffmpeg.js';
import { isEngineError } from '../../../../../src-server/domain/engine-error.js';
import { tempDir } from '../../../../support/test-server.js';
import { understatedFlac } from '../../../../support/audio-fixtures.js';

const dir = tempDir('kikitori-audio-limits-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const caught = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error;
  }
  return null;
};

describe('audio limits', () => {
  it('says the limit as people do', () => {
    expect(describeDuration(43_200)).toBe('12-hour');
    expect(describeDuration(5400)).toBe('90-minute');
    expect(describeDuration(5)).toBe('5-second');
  });

  it('fails a recording over the limit as bad input, with the numbers only in the detail', () => {
    expect(caught(() => checkDuration(43_200, { maxSeconds: 43_200 }))).toBeNull();
    const error = caught(() => checkDuration(43_200.5, { maxSeconds: 43_200 }));
    expect(isEngineError(error, 'bad-input')).toBe(true);
    expect((error as Error).message).toBe(
      "This recording is longer than the 12-hour limit of this server. Split it into shorter parts and upload them one by one, or ask the server's administrator to raise the limit.",
    );
    expect((error as { detail?: string }).detail).toBe('duration 43200.5 s, over KIKITORI_MAX_AUDIO_SECONDS=43200');
    // A decode may run a few milliseconds past a probe's length; -t lets it run a second past the limit.
    expect(caught(() => checkDecodedDuration(5.2, { maxSeconds: 5 }))).toBeNull();
    expect(
      isEngineError(
        caught(() => checkDecodedDuration(6, { maxSeconds: 5 })),
        'bad-input',
      ),
    ).toBe(true);
  });

  it('needs room for the PCM beyond the reserve, as a transient failure', async () => {
    const limits = (free: number) => ({ maxSeconds: 43_200, minFreeBytes: 1000, freeSpace: async () => free });
    // 10 s of 16 kHz s16le PCM: 320,000 bytes.
    await expect(ensureDecodeSpace(dir, 10, limits(321_000))).resolves.toBeUndefined();
    const full = await ensureDecodeSpace(dir, 10, limits(320_999)).catch((error: unknown) => error);
    expect(isEngineError(full, 'transient')).toBe(true);
    expect((full as Error).message).toMatch(
      /^There is not enough free disk space on the server to convert this recording \(it needs about 320 kB\)\./,
    );
    // Length unknown (small files): nothing may be written into the reserve.
    expect(
      isEngineError(await ensureDecodeSpace(dir, 0, limits(1000)).catch((error: unknown) => error), 'transient'),
    ).toBe(true);
    await expect(ensureDecodeSpace(dir, 0, limits(1001))).resolves.toBeUndefined();
  });

  it('stops decoding a second past maxSeconds whatever the header claims', async () => {
    const flac = await understatedFlac(path.join(dir, 'lying.flac'));
    expect((await probeAudio(flac)).durationSeconds).toBe(2);
    const pcm = path.join(dir, 'lying.pcm');
    const { durationSeconds } = await decodeToPcm(flac, pcm, { durationSeconds: 2, maxSeconds: 5 });
    expect(durationSeconds).toBe(6);
    expect(fs.statSync(pcm).size).toBe(6 * 32_000);
  });
});
