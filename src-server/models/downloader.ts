// Downloads one model file: streams to `<file>.part`, resumes a previous part with an HTTP Range
// request, checks the byte count and SHA-256 and that whisper.cpp can load it (ggml-file.ts), then
// renames into place. The final name never holds a partial, wrong or unloadable file: an interrupted transfer keeps only the `.part` (the next download resumes
// it), a wrong hash or a cancel removes it.
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { whisperModelProblem } from '../engines/speech/ggml-file.js';
import { formatBytes } from '../storage/free-space.js';
import { isModelError, ModelError } from './model-error.js';

/** What kind of model a file is: named so in messages, and checked by `problemOf` before it takes its name. */
export interface ModelFormat {
  noun: string;
  /** Why the file cannot be loaded as this kind of model, or null. */
  problemOf(file: string): string | null;
}

export const WHISPER_FORMAT: ModelFormat = { noun: 'speech model', problemOf: whisperModelProblem };

export interface DownloadTarget {
  /** Catalogue name, for messages. */
  name: string;
  /** Default WHISPER_FORMAT. */
  format?: ModelFormat;
  url: string;
  /** Final path; the transfer writes `${path}.part`. */
  path: string;
  bytes: number;
  sha256: string;
}

export interface DownloadCallbacks {
  signal?: AbortSignal;
  /** Bytes on disk so far (resumed bytes included) and the expected total. */
  onProgress?: (received: number, total: number) => void;
  /** All bytes are in; the hash is being checked. */
  onVerifying?: () => void;
}

export const partPath = (file: string) => `${file}.part`;

const noun = (target: DownloadTarget) => (target.format ?? WHISPER_FORMAT).noun;

const MIRROR_HINT =
  'Check the network connection, or ask an administrator to set a mirror (KIKITORI_MODEL_BASE_URL) or copy the file onto the server.';

/**
 * Throws 'insufficient-storage' unless `needed` bytes fit in the `free` bytes measured in `dir` with
 * `reserveBytes` (KIKITORI_MIN_FREE_DISK_BYTES) kept free and `pendingBytes` (what downloads already running
 * will still write) set aside. Synchronous, so that a caller can check and register its download in one step.
 */
export function assertRoom(
  dir: string,
  room: { free: number; reserveBytes: number; pendingBytes: number },
  needed: number,
  name: string,
): void {
  const { free, reserveBytes, pendingBytes } = room;
  const usable = free - reserveBytes - pendingBytes;
  if (usable >= needed) return;
  throw new ModelError(
    'insufficient-storage',
    `Not enough disk space for the speech model "${name}": it needs ${formatBytes(needed)} and ${formatBytes(Math.max(0, usable))} can be used${pendingBytes > 0 ? ' while the other downloads finish' : ''}. Free some space on the server, or choose a smaller model.`,
    {
      detail: `statfs ${dir}: ${free} bytes available, ${reserveBytes} kept free (KIKITORI_MIN_FREE_DISK_BYTES), ${pendingBytes} still to come for running downloads, ${needed} needed`,
    },
  );
}

async function existingSize(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).size;
  } catch {
    return 0;
  }
}

async function hashFile(file: string, hash: Hash, signal?: AbortSignal): Promise<void> {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024, signal }))
    hash.update(chunk as Buffer);
}

/** Why an aborted download stopped: a cancel (nothing kept), or the reason given to abort() (e.g. 'interrupted' at shutdown: the part is kept). */
function stopped(name: string, signal?: AbortSignal): ModelError {
  return isModelError(signal?.reason)
    ? signal.reason
    : new ModelError('cancelled', `The download of the speech model "${name}" was cancelled.`);
}

/** GET with an optional Range; network failures become 'unreachable' in the user's terms. */
async function request(target: DownloadTarget, from: number, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(target.url, {
      signal,
      redirect: 'follow',
      headers: from > 0 ? { range: `bytes=${from}-` } : {},
    });
  } catch (error) {
    if (signal?.aborted) throw stopped(target.name, signal);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new ModelError(
      'unreachable',
      `Could not reach the model server to download "${target.name}". ${MIRROR_HINT}`,
      {
        detail: `GET ${target.url}: ${why}`,
        cause: error,
      },
    );
  }
}

/**
 * The right bytes can still be the wrong thing (a catalogue entry naming a file that is not a whisper model):
 * only a file whisper.cpp can load takes the final name, which engine `auto` would pick up.
 */
export function assertLoadable(
  file: string,
  name: string,
  source: { url: string } | { file: true },
  format: ModelFormat = WHISPER_FORMAT,
): void {
  const problem = format.problemOf(file);
  if (problem === null) return;
  const noun = format.noun;
  throw new ModelError(
    'unusable',
    'url' in source
      ? `The ${noun} "${name}" was downloaded, but it is not a ${noun} this server can load, so it was not installed. Ask an administrator to check the model catalogue (KIKITORI_MODEL_CATALOG) or the mirror, or choose another model.`
      : `The file matches the ${noun} "${name}" in the catalogue, but it is not a ${noun} this server can load, so it was not installed. Ask an administrator to check the model catalogue (KIKITORI_MODEL_CATALOG), or choose another model.`,
    { detail: `${'url' in source ? source.url : 'installed file'}: SHA-256 matches the catalogue, but ${problem}` },
  );
}

/**
 * Fetches `target` into place. Resolves with the final path; rejects with a ModelError. A part left by
 * an earlier interrupted download is hashed first and continued with `Range: bytes=<size>-`; a server
 * that answers 200 instead of 206 sends the whole file again, so the part restarts from 0.
 */
export async function downloadModelFile(target: DownloadTarget, callbacks: DownloadCallbacks = {}): Promise<string> {
  const { signal, onProgress } = callbacks;
  const part = partPath(target.path);
  const dir = path.dirname(target.path);
  await fsp.mkdir(dir, { recursive: true });
  if (signal?.aborted) throw stopped(target.name, signal);

  let have = await existingSize(part);
  if (have > target.bytes) {
    await fsp.rm(part, { force: true });
    have = 0;
  }

  let sha256 = createHash('sha256');
  try {
    if (have > 0) await hashFile(part, sha256, signal);
    if (have < target.bytes) {
      let response = await request(target, have, signal);
      if (have > 0 && response.status === 416) {
        // The source says the part is past its end: it is not the same file. Start over.
        await response.body?.cancel();
        have = 0;
        sha256 = createHash('sha256');
        response = await request(target, 0, signal);
      }
      if (response.status === 206 && have > 0) {
        const start = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1];
        if (start === undefined || Number(start) !== have) {
          await response.body?.cancel();
          throw new ModelError(
            'source-failed',
            `The model server sent the wrong part of "${target.name}". ${MIRROR_HINT}`,
            {
              detail: `GET ${target.url} with Range bytes=${have}-: Content-Range ${response.headers.get('content-range')}`,
            },
          );
        }
      } else if (response.ok && have > 0) {
        // 200 to a Range request: the whole file comes again.
        have = 0;
        sha256 = createHash('sha256');
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new ModelError(
          'source-failed',
          response.status === 404 || response.status === 403 || response.status === 410
            ? `The model server does not have the ${noun(target)} "${target.name}". Ask an administrator to check the mirror (KIKITORI_MODEL_BASE_URL) or the catalogue.`
            : `The model server could not send the ${noun(target)} "${target.name}" right now. Try again later. ${MIRROR_HINT}`,
          { detail: `GET ${target.url}: HTTP ${response.status}` },
        );
      }
      let received = have;
      onProgress?.(received, target.bytes);
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          if (received > target.bytes) {
            done(
              new ModelError(
                'corrupt',
                `The model server sent more data than the ${noun(target)} "${target.name}" has; the download was not kept. ${MIRROR_HINT}`,
                {
                  detail: `GET ${target.url}: more than ${target.bytes} bytes`,
                },
              ),
            );
            return;
          }
          sha256.update(chunk);
          onProgress?.(received, target.bytes);
          done(null, chunk);
        },
      });
      try {
        await pipeline(
          Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
          counter,
          fs.createWriteStream(part, { flags: have > 0 ? 'a' : 'w' }),
          { signal },
        );
      } catch (error) {
        if (signal?.aborted) throw stopped(target.name, signal);
        if (error instanceof ModelError) throw error;
        throw new ModelError(
          'interrupted',
          `The download of the ${noun(target)} "${target.name}" stopped at ${received} of ${target.bytes} bytes. Download it again to continue where it stopped.`,
          {
            detail: `GET ${target.url}: ${(error as Error).message}`,
            cause: error,
          },
        );
      }
      if (received < target.bytes) {
        throw new ModelError(
          'interrupted',
          `The download of the ${noun(target)} "${target.name}" stopped at ${received} of ${target.bytes} bytes. Download it again to continue where it stopped.`,
          {
            detail: `GET ${target.url}: the body ended early`,
          },
        );
      }
    }
    callbacks.onVerifying?.();
    const digest = sha256.digest('hex');
    if (digest !== target.sha256.toLowerCase()) {
      throw new ModelError(
        'corrupt',
        `The downloaded ${noun(target)} "${target.name}" is damaged (its checksum does not match), so it was not kept. Try again; if it happens again, ask an administrator to check the mirror.`,
        {
          detail: `${target.url}: SHA-256 ${digest}, expected ${target.sha256}`,
        },
      );
    }
    assertLoadable(part, target.name, { url: target.url }, target.format);
    await fsp.rename(part, target.path);
    return target.path;
  } catch (error) {
    // An interrupted or unreachable transfer keeps its part for the next attempt; anything that makes the part useless removes it.
    const reason = signal?.aborted ? stopped(target.name, signal) : error;
    const keep =
      reason instanceof ModelError &&
      ['interrupted', 'unreachable', 'source-failed', 'insufficient-storage'].includes(reason.kind);
    if (!keep) await fsp.rm(part, { force: true });
    if (signal?.aborted && !(error instanceof ModelError && error.kind === 'cancelled'))
      throw stopped(target.name, signal);
    throw error;
  }
}
