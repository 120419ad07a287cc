// Voice prints of parts of a stored recording (a voice's samples), whatever prints them: each part decoded on
// its own to a temporary 16 kHz PCM file in `workDir`, printed whole, and the file removed.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { newId } from '../../domain/records.js';
import type { TimeRange, VoicePrint } from '../../domain/voice-prints.js';
import { decodeToPcm } from '../audio/ffmpeg.js';

type Printed = { print: VoicePrint; speechSeconds: number };

export async function printEachPart(
  audioPath: string,
  parts: readonly TimeRange[],
  workDir: string,
  signal: AbortSignal,
  print: (pcmPath: string, ranges: readonly TimeRange[], signal: AbortSignal) => Promise<Printed>,
): Promise<Printed[]> {
  await fsp.mkdir(workDir, { recursive: true, mode: 0o700 });
  const out: Printed[] = [];
  for (const part of parts) {
    const pcmPath = path.join(workDir, `voice-${newId()}.pcm`);
    try {
      const { durationSeconds } = await decodeToPcm(audioPath, pcmPath, {
        signal,
        range: part,
        durationSeconds: part.end - part.start,
      });
      out.push(await print(pcmPath, [{ start: 0, end: durationSeconds }], signal));
    } finally {
      await fsp.rm(pcmPath, { force: true });
    }
  }
  return out;
}
