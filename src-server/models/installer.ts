// Installs a model from a file the operator already has (a machine that cannot reach the model host):
// the bytes arrive as a stream (an HTTP body, or a local file for the CLI), are written to
// `<file>.install`, and are checked exactly as a download is (size, SHA-256, that whisper.cpp loads
// them) before they take the final name. A file that is not this model is refused and nothing is kept.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from '../storage/free-space.js';
import { assertLoadable, type ModelFormat } from './downloader.js';
import { ModelError } from './model-error.js';

export interface InstallTarget {
  name: string;
  /** The catalogue's file name ("ggml-small.bin"), named in messages so the user can find the right file. */
  file: string;
  /** Final path; the bytes are written to `${path}.install` first. */
  path: string;
  bytes: number;
  sha256: string;
  /** Default WHISPER_FORMAT. */
  format?: ModelFormat;
}

export const installPath = (file: string) => `${file}.install`;

/** The file's size says it is another file: refused before any byte is read. */
export function wrongSize(target: InstallTarget, size: number): ModelError {
  return new ModelError(
    'not-this-model',
    `This file is not the speech model "${target.name}": it is ${formatBytes(size)}, and the model is ${formatBytes(target.bytes)}. Choose the file named ${target.file}.`,
    { detail: `${size} bytes given, ${target.bytes} expected` },
  );
}

/** Writes `body` into place after checking it; rejects with a ModelError and keeps nothing when it is not the model. */
export async function installModelFile(
  target: InstallTarget,
  body: Readable,
  options: { onProgress?: (received: number, total: number) => void } = {},
): Promise<string> {
  const part = installPath(target.path);
  await fsp.mkdir(path.dirname(target.path), { recursive: true });
  const sha256 = createHash('sha256');
  let received = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      received += chunk.length;
      if (received > target.bytes) {
        done(wrongSize(target, received));
        return;
      }
      sha256.update(chunk);
      options.onProgress?.(received, target.bytes);
      done(null, chunk);
    },
  });
  try {
    try {
      await pipeline(body, counter, fs.createWriteStream(part));
    } catch (error) {
      if (error instanceof ModelError) throw error;
      throw new ModelError(
        'interrupted',
        `The file for the speech model "${target.name}" stopped arriving at ${formatBytes(received)} of ${formatBytes(target.bytes)}, so it was not installed. Try again.`,
        { detail: (error as Error).message, cause: error },
      );
    }
    if (received < target.bytes) throw wrongSize(target, received);
    const digest = sha256.digest('hex');
    if (digest !== target.sha256.toLowerCase()) {
      throw new ModelError(
        'not-this-model',
        `This file is not the speech model "${target.name}", or it is damaged: its checksum does not match the catalogue. Choose the file named ${target.file}, or download it again.`,
        { detail: `SHA-256 ${digest}, expected ${target.sha256}` },
      );
    }
    assertLoadable(part, target.name, { file: true }, target.format);
    await fsp.rename(part, target.path);
    return target.path;
  } catch (error) {
    await fsp.rm(part, { force: true });
    throw error;
  }
}
