// The pipeline's decode stage (domain/transcription-pipeline.ts) with ffmpeg: an upload becomes 16 kHz
// mono PCM. Limits on what may be decoded (duration, free disk) belong here.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { EngineError } from '../../domain/engine-error.js';
import { channelPcmPath, type DecodeRequest, type DecodeStage } from '../../domain/transcription-pipeline.js';
import { checkDecodedDuration, checkDuration, ensureDecodeSpace, type AudioLimits } from './audio-limits.js';
import { decodeToPcm, probeAudio, SAMPLE_RATE } from './ffmpeg.js';
import { pcmWavLayout, type PcmWavLayout } from './pcm-wav.js';

/**
 * Uploads up to this size (minutes of compressed audio, seconds of WAV) are decoded without a probe: one
 * tool start-up instead of two, on a short clip most of the conversion. Bigger ones are probed first,
 * so that the decode can report progress against the duration.
 */
const CONCURRENT_CONVERT_BYTES = 4 * 1024 * 1024;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
/** Most channels a multichannel upload is transcribed from: each is a recognition of the whole length. */
export const MAX_CHANNELS = 8;

export class FfmpegDecodeStage implements DecodeStage {
  /** `limits`: the longest recording, and the disk decoding must leave free (decision 0026). */
  constructor(private readonly limits: AudioLimits) {}

  /**
   * - Large files: probe first (its duration drives the decode's progress), then decode.
   * - Small files: decode alone, and take the length from the PCM: one process instead of two, which
   *   is most of a short clip's conversion time (each ffmpeg/ffprobe start costs ~0.14 s here). When
   *   the decode fails, the probe runs then, so a file that is not audio is explained in its words.
   * - A WAV that already holds 16 kHz mono s16le samples: its data chunk is copied, and ffmpeg never starts.
   */
  async decode(o: DecodeRequest): Promise<{ durationSeconds: number; channels?: number }> {
    if (o.splitChannels) return this.decodeChannels(o);
    const { limits } = this;
    const workDir = path.dirname(o.pcmPath);
    const wav = await pcmWavLayout(o.audioPath);
    if (wav && wav.bytes > 0) return this.copySamples(o, wav);
    if ((o.sizeBytes ?? Infinity) > CONCURRENT_CONVERT_BYTES) {
      const probe = await o.timings.time('probe', () => probeAudio(o.audioPath, o.signal));
      checkDuration(probe.durationSeconds, limits);
      await ensureDecodeSpace(workDir, probe.durationSeconds, limits);
      const decoded = await o.timings.time('decode', () =>
        decodeToPcm(o.audioPath, o.pcmPath, {
          signal: o.signal,
          durationSeconds: probe.durationSeconds,
          onProgress: o.onProgress,
          maxSeconds: limits.maxSeconds,
        }),
      );
      // A header that understated the length: -t stopped the decode just past the limit.
      checkDecodedDuration(decoded.durationSeconds, limits);
      return { durationSeconds: probe.durationSeconds };
    }
    // The length is not known before decoding: the reserve alone, and -t bounds what is written.
    await ensureDecodeSpace(workDir, 0, limits);
    try {
      // durationSeconds 0: no probe inside decodeToPcm and no progress (the file is small).
      await o.timings.time('decode', () =>
        decodeToPcm(o.audioPath, o.pcmPath, { signal: o.signal, durationSeconds: 0, maxSeconds: limits.maxSeconds }),
      );
    } catch (error) {
      if (o.signal.aborted) throw error;
      // The probe's verdict explains a file that is not audio; when it finds nothing wrong, the decode's error stands.
      await o.timings.time('probe', () => probeAudio(o.audioPath, o.signal));
      throw error;
    }
    const seconds = round3((await fsp.stat(o.pcmPath)).size / 2 / SAMPLE_RATE);
    checkDecodedDuration(seconds, limits);
    o.onProgress(1);
    return { durationSeconds: seconds };
  }

  /** The samples of a WAV that needs no conversion, copied as they are (through a part file, as ffmpeg writes). */
  private async copySamples(o: DecodeRequest, wav: PcmWavLayout): Promise<{ durationSeconds: number }> {
    const seconds = wav.bytes / 2 / SAMPLE_RATE;
    checkDuration(seconds, this.limits);
    await ensureDecodeSpace(path.dirname(o.pcmPath), seconds, this.limits);
    const part = `${o.pcmPath}.part`;
    await o.timings.time('decode', async () => {
      try {
        await pipeline(
          fs.createReadStream(o.audioPath, { start: wav.offset, end: wav.offset + wav.bytes - 1 }),
          fs.createWriteStream(part),
          { signal: o.signal },
        );
        await fsp.rename(part, o.pcmPath);
      } catch (error) {
        await fsp.rm(part, { force: true });
        throw error;
      }
    });
    o.onProgress(1);
    return { durationSeconds: round3(seconds) };
  }

  /**
   * Multichannel (decision 0061): probed first, for the channel count, then each channel decoded on its own
   * (ffmpeg's pan picks it out); a one-channel file gives one. Channels already written are removed when a
   * later one fails.
   */
  private async decodeChannels(o: DecodeRequest): Promise<{ durationSeconds: number; channels: number }> {
    const { limits } = this;
    const probe = await o.timings.time('probe', () => probeAudio(o.audioPath, o.signal));
    if (probe.channels > MAX_CHANNELS) {
      throw new EngineError(
        'bad-input',
        `The recording has ${probe.channels} channels; multichannel transcribes up to ${MAX_CHANNELS}. Upload it without multichannel to have its channels mixed down and voices separated.`,
        { field: 'multichannel', detail: `ffprobe: ${probe.channels} channels, ${probe.codecName}` },
      );
    }
    checkDuration(probe.durationSeconds, limits);
    await ensureDecodeSpace(path.dirname(o.pcmPath), probe.durationSeconds * probe.channels, limits);
    const written: string[] = [];
    try {
      for (let channel = 0; channel < probe.channels; channel++) {
        const out = channelPcmPath(o.pcmPath, channel + 1);
        written.push(out);
        const decoded = await o.timings.time('decode', () =>
          decodeToPcm(o.audioPath, out, {
            signal: o.signal,
            durationSeconds: probe.durationSeconds,
            onProgress: (f) => o.onProgress((channel + f) / probe.channels),
            maxSeconds: limits.maxSeconds,
            channel,
          }),
        );
        checkDecodedDuration(decoded.durationSeconds, limits);
      }
    } catch (error) {
      await Promise.all(written.map((p) => fsp.rm(p, { force: true })));
      throw error;
    }
    return { durationSeconds: probe.durationSeconds, channels: probe.channels };
  }
}
