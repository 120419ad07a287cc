// Bounded-memory access to the raw PCM written by decodeToPcm (16 kHz mono s16le). Samples are
// viewed in place through Int16Array, which assumes a little-endian host (x86-64, arm64).
import fsp from 'node:fs/promises';

/** Yields the file in chunks of at most `chunkSamples` samples (the last may be shorter). */
export async function* readPcmChunks(
  path: string,
  chunkSamples: number,
  signal?: AbortSignal,
): AsyncGenerator<Int16Array> {
  const handle = await fsp.open(path, 'r');
  try {
    for (let offset = 0; ;) {
      signal?.throwIfAborted();
      // Fresh buffer per chunk: consumers may keep the view (cheap at ~1 MB per chunk).
      const samples = new Int16Array(chunkSamples);
      const { bytesRead } = await handle.read(Buffer.from(samples.buffer), 0, chunkSamples * 2, offset);
      const n = bytesRead >> 1; // a trailing odd byte is not a sample
      if (n === 0) return;
      offset += n * 2;
      yield n === chunkSamples ? samples : samples.subarray(0, n);
    }
  } finally {
    await handle.close();
  }
}

/** Reads samples [start, end) (clamped to the file). */
export async function readPcmRange(handle: fsp.FileHandle, start: number, end: number): Promise<Int16Array> {
  const samples = new Int16Array(Math.max(0, end - start));
  let filled = 0;
  while (filled < samples.length) {
    const { bytesRead } = await handle.read(
      Buffer.from(samples.buffer),
      filled * 2,
      (samples.length - filled) * 2,
      (start + filled) * 2,
    );
    if (bytesRead < 2) break;
    filled += bytesRead >> 1;
  }
  return samples.subarray(0, filled);
}
