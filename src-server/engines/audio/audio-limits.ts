// The limits on what the CONVERTING stage may cost: a recording's length (KIKITORI_MAX_AUDIO_SECONDS)
// and the disk its PCM needs (KIKITORI_MIN_FREE_DISK_BYTES kept free). Decision 0026.
import { EngineError } from '../../domain/engine-error.js';
import { formatBytes, type FreeSpaceReader } from '../../storage/free-space.js';
import { PCM_BYTES_PER_SECOND } from './ffmpeg.js';

export interface AudioLimits {
  /** Longest recording transcribed, in seconds. */
  maxSeconds: number;
  /** Disk space that decoding must leave free. */
  minFreeBytes: number;
  freeSpace: FreeSpaceReader;
}

/** "12-hour", "90-minute", "5-second": the limit as people say it. */
export function describeDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}-hour`;
  if (seconds % 60 === 0) return `${seconds / 60}-minute`;
  return `${seconds}-second`;
}

/** A recording over the limit can never succeed here: it fails at once, without retries. */
export function audioTooLong(maxSeconds: number, actualSeconds: number | null): EngineError {
  return new EngineError(
    'bad-input',
    `This recording is longer than the ${describeDuration(maxSeconds)} limit of this server. Split it into shorter parts and upload them one by one, or ask the server's administrator to raise the limit.`,
    {
      detail: `${actualSeconds === null ? 'decoded more than' : `duration ${actualSeconds} s, over`} KIKITORI_MAX_AUDIO_SECONDS=${maxSeconds}`,
    },
  );
}

/** Throws audioTooLong when `seconds` (as a probe reports it, or as decoded) passes the limit. */
export function checkDuration(seconds: number, limits: Pick<AudioLimits, 'maxSeconds'>): void {
  if (seconds > limits.maxSeconds) throw audioTooLong(limits.maxSeconds, Math.round(seconds * 1000) / 1000);
}

/**
 * After decoding with `-t maxSeconds + 1`: longer than the limit by more than resampling can add.
 * (A probe's length and the decoded one differ by a few milliseconds.)
 */
export function checkDecodedDuration(seconds: number, limits: Pick<AudioLimits, 'maxSeconds'>): void {
  if (seconds > limits.maxSeconds + 0.5) throw audioTooLong(limits.maxSeconds, null);
}

/** The PCM bytes decoding `seconds` of audio writes. */
export const pcmBytesFor = (seconds: number) => Math.ceil(seconds * PCM_BYTES_PER_SECOND);

/**
 * Before decoding: the PCM of `seconds` (0 when the length is not known yet: small files) must fit
 * in `dir` with the reserve left over. Not enough is transient: the job runner retries with backoff,
 * since space freed meanwhile (another job's PCM removed, an operator's clean-up) lets it run.
 */
export async function ensureDecodeSpace(dir: string, seconds: number, limits: AudioLimits): Promise<void> {
  const needed = pcmBytesFor(seconds);
  const free = await limits.freeSpace(dir);
  const usable = free - limits.minFreeBytes;
  // Nothing may be written into the reserve, even when the length is not known yet (needed 0).
  if (usable <= 0 || usable < needed) {
    throw new EngineError(
      'transient',
      `There is not enough free disk space on the server to convert this recording${needed > 0 ? ` (it needs about ${formatBytes(needed)})` : ''}. Try again later, or ask the server's administrator to free some space.`,
      {
        detail: `statfs ${dir}: ${free} bytes available, ${needed} needed for PCM plus ${limits.minFreeBytes} kept free (KIKITORI_MIN_FREE_DISK_BYTES)`,
      },
    );
  }
}
