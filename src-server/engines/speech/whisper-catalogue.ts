// The catalogue of official whisper.cpp ggml models (names, exact sizes and hashes as published for
// ggerganov/whisper.cpp), where they live (<data-dir>/models/), and downloading and verifying them.
// The file format itself is ggml-file.ts.
//
// Failures are EngineErrors: an unknown name is 'bad-input'; a network failure or an interrupted
// download is 'transient' (running it again may work); a source that lacks the file or serves wrong
// bytes is 'unavailable' (an operator has to change the mirror or fetch the file another way).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DEFAULT_WHISPER_MODEL_BASE_URL } from '../../config.js';
import { EngineError } from '../../domain/engine-error.js';

export interface WhisperModelInfo {
  /** Catalogue name, as in `kikitori-server models download <name>`. */
  name: string;
  file: string;
  bytes: number;
  /** As listed in whisper.cpp models/README.md. */
  sha1: string;
  /** As published with the files (Git LFS object id). */
  sha256: string;
  multilingual: boolean;
}

/** Official ggml conversions, smallest first. Sizes are exact byte counts. */
export const WHISPER_MODELS: readonly WhisperModelInfo[] = [
  { name: 'tiny', file: 'ggml-tiny.bin', bytes: 77_691_713, sha1: 'bd577a113a864445d4c299885e0cb97d4ba92b5f', sha256: 'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21', multilingual: true },
  { name: 'tiny.en', file: 'ggml-tiny.en.bin', bytes: 77_704_715, sha1: 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df', sha256: '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f', multilingual: false },
  { name: 'base', file: 'ggml-base.bin', bytes: 147_951_465, sha1: '465707469ff3a37a2b9b8d8f89f2f99de7299dac', sha256: '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe', multilingual: true },
  { name: 'base.en', file: 'ggml-base.en.bin', bytes: 147_964_211, sha1: '137c40403d78fd54d454da0f9bd998f78703390c', sha256: 'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002', multilingual: false },
  { name: 'small', file: 'ggml-small.bin', bytes: 487_601_967, sha1: '55356645c2b361a969dfd0ef2c5a50d530afd8d5', sha256: '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b', multilingual: true },
  { name: 'small.en', file: 'ggml-small.en.bin', bytes: 487_614_201, sha1: 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022', sha256: 'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d', multilingual: false },
  { name: 'medium', file: 'ggml-medium.bin', bytes: 1_533_763_059, sha1: 'fd9727b6e1217c2f614f9b698455c4ffd82463b4', sha256: '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208', multilingual: true },
  { name: 'medium.en', file: 'ggml-medium.en.bin', bytes: 1_533_774_781, sha1: '8c30f0e44ce9560643ebd10bbe50cd20eafd3723', sha256: 'cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356', multilingual: false },
  { name: 'large-v3-turbo', file: 'ggml-large-v3-turbo.bin', bytes: 1_624_555_275, sha1: '4af2b29d7ec73d781377bfd1758ca957a807e941', sha256: '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69', multilingual: true },
  { name: 'large-v3', file: 'ggml-large-v3.bin', bytes: 3_095_033_483, sha1: 'ad82bf6a9043ceed055076d0fd39f5f186ff8062', sha256: '64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2', multilingual: true },
];

/** When no model is configured (KIKITORI_WHISPER_MODEL), the first of these present in the models directory is used. */
export const WHISPER_MODEL_PREFERENCE = ['large-v3-turbo', 'large-v3', 'medium', 'small', 'base', 'tiny', 'medium.en', 'small.en', 'base.en', 'tiny.en'];

export function whisperModelsDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

export function findWhisperModel(name: string): WhisperModelInfo | undefined {
  const wanted = name.replace(/^ggml-/, '').replace(/\.bin$/, '');
  return WHISPER_MODELS.find((m) => m.name === wanted);
}

export function unknownModelMessage(name: string): string {
  return `Unknown whisper model "${name}". Known models: ${WHISPER_MODELS.map((m) => m.name).join(', ')}.`;
}

/** How to get a model, for error messages. */
export function howToGetModel(dataDir: string): string {
  return (
    `Download one with \`npx kikitori-server models download base\` (see \`npx kikitori-server models list\`), ` +
    `or place an official ggml file in ${whisperModelsDir(dataDir)}, or point KIKITORI_WHISPER_MODEL at a ggml model file.`
  );
}

const formatBytes = (n: number) => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(n / 1024 ** 2)} MiB`);
export { formatBytes as formatModelSize };

export interface DownloadOptions {
  dataDir: string;
  /** Where the files are served (config `models.baseUrl`, KIKITORI_WHISPER_MODEL_BASE_URL); default the official location. */
  baseUrl?: string;
  signal?: AbortSignal;
  /** Bytes received so far and the expected total. */
  onProgress?: (received: number, total: number) => void;
}

const unknownModel = (name: string) => new EngineError('bad-input', unknownModelMessage(name), { field: 'name' });

/**
 * Fetches a catalogue model into <data-dir>/models/. Streams to `<file>.part` while hashing, checks
 * the byte count and SHA-256, then renames; the final name never holds a partial or wrong file.
 */
export async function downloadWhisperModel(name: string, options: DownloadOptions): Promise<{ path: string; bytes: number }> {
  const model = findWhisperModel(name);
  if (!model) throw unknownModel(name);
  const dir = whisperModelsDir(options.dataDir);
  const target = path.join(dir, model.file);
  const base = (options.baseUrl ?? DEFAULT_WHISPER_MODEL_BASE_URL).replace(/\/+$/, '');
  const url = `${base}/${model.file}`;
  const offline =
    `This machine may be offline or unable to reach ${new URL(url).host}. Download ${url} elsewhere, ` +
    `copy it to ${target} and run \`npx kikitori-server models verify ${model.name}\`.`;

  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal, redirect: 'follow' });
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new EngineError('transient', `Could not download the whisper model "${model.name}" from ${url} (${why}). ${offline}`, { detail: `GET ${url}: ${why}`, cause: error });
  }
  if (!response.ok || !response.body) {
    // The source answered: a 404 or 403 will answer the same next time; 408, 429 and 5xx may not.
    const kind = response.status === 408 || response.status === 429 || response.status >= 500 ? 'transient' : 'unavailable';
    throw new EngineError(kind, `Could not download the whisper model "${model.name}": ${url} answered HTTP ${response.status}. ${offline}`, {
      detail: `GET ${url}: HTTP ${response.status}`,
    });
  }

  await fsp.mkdir(dir, { recursive: true });
  const part = `${target}.part`;
  const sha256 = createHash('sha256');
  let received = 0;
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          received += chunk.length;
          if (received > model.bytes) throw new EngineError('unavailable', `The download of ${model.file} is larger than the expected ${model.bytes} bytes; not keeping it.`, { detail: `GET ${url}` });
          sha256.update(chunk);
          options.onProgress?.(received, model.bytes);
          yield chunk;
        }
      },
      fs.createWriteStream(part),
      { signal: options.signal },
    );
    if (received !== model.bytes) {
      throw new EngineError('transient', `The download of ${model.file} stopped at ${received} of ${model.bytes} bytes. Run the download again.`, { detail: `GET ${url}` });
    }
    const digest = sha256.digest('hex');
    if (digest !== model.sha256) {
      throw new EngineError('unavailable', `The download of ${model.file} has SHA-256 ${digest}, expected ${model.sha256}; not keeping it.`, { detail: `GET ${url}` });
    }
    await fsp.rename(part, target);
  } catch (error) {
    await fsp.rm(part, { force: true });
    throw error;
  }
  return { path: target, bytes: received };
}

export interface VerifyResult {
  name: string;
  path: string;
  present: boolean;
  ok: boolean;
  /** What is wrong, or null when the file matches the catalogue. */
  problem: string | null;
}

/** Checks a downloaded catalogue model: present, exact size, SHA-1 and SHA-256. */
export async function verifyWhisperModel(name: string, dataDir: string): Promise<VerifyResult> {
  const model = findWhisperModel(name);
  if (!model) throw unknownModel(name);
  const file = path.join(whisperModelsDir(dataDir), model.file);
  const result = (present: boolean, problem: string | null): VerifyResult => ({ name: model.name, path: file, present, ok: problem === null, problem });
  let size: number;
  try {
    size = (await fsp.stat(file)).size;
  } catch {
    return result(false, `not downloaded (${file} is missing)`);
  }
  if (size !== model.bytes) return result(true, `size is ${size} bytes, expected ${model.bytes}: the file is incomplete or not ${model.file}`);
  const sha1 = createHash('sha1');
  const sha256 = createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })) {
    sha1.update(chunk as Buffer);
    sha256.update(chunk as Buffer);
  }
  const [d1, d256] = [sha1.digest('hex'), sha256.digest('hex')];
  if (d1 !== model.sha1) return result(true, `SHA-1 is ${d1}, expected ${model.sha1}: the file is damaged`);
  if (d256 !== model.sha256) return result(true, `SHA-256 is ${d256}, expected ${model.sha256}: the file is damaged`);
  return result(true, null);
}

/** Catalogue models whose file exists in the models directory (any size: `verify` judges them). */
export function presentWhisperModels(dataDir: string): WhisperModelInfo[] {
  const dir = whisperModelsDir(dataDir);
  return WHISPER_MODELS.filter((m) => fs.existsSync(path.join(dir, m.file)));
}

