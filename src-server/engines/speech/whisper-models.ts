// whisper.cpp ggml models: the catalogue of official files (names, exact sizes and hashes as published
// for ggerganov/whisper.cpp), where they live (<data-dir>/models/), downloading and verifying them, and
// a structural check of any ggml file before whisper.cpp sees it.
//
// Why the structural check: the smart-whisper binding calls whisper_print_timings() on the context
// whisper_init returned even when loading failed (NULL), so a truncated, corrupt or foreign file
// crashes the whole process instead of raising an error. inspectWhisperModel() walks the header,
// mel filters, vocabulary and every tensor header exactly as whisper_model_load() does and rejects
// anything it would reject. It also returns the vocabulary bytes, which the engine needs to rebuild
// words from token ids (the binding hands out token texts as lossy UTF-8: a Japanese character split
// over two tokens comes back as U+FFFD twice).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

/** Where the official files are served; KIKITORI_WHISPER_MODEL_BASE_URL overrides it (mirrors, tests). */
export const DEFAULT_WHISPER_MODEL_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

/** When KIKITORI_WHISPER_MODEL is not set, the first of these present in the models directory is used. */
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

// ---------------------------------------------------------------------------------------------
// Download and verification
// ---------------------------------------------------------------------------------------------

export interface DownloadOptions {
  dataDir: string;
  /** Defaults to KIKITORI_WHISPER_MODEL_BASE_URL or the official location. */
  baseUrl?: string;
  signal?: AbortSignal;
  /** Bytes received so far and the expected total. */
  onProgress?: (received: number, total: number) => void;
}

export class ModelDownloadError extends Error {
  override readonly name = 'ModelDownloadError';
}

/**
 * Fetches a catalogue model into <data-dir>/models/. Streams to `<file>.part` while hashing, checks
 * the byte count and SHA-256, then renames; the final name never holds a partial or wrong file.
 */
export async function downloadWhisperModel(name: string, options: DownloadOptions): Promise<{ path: string; bytes: number }> {
  const model = findWhisperModel(name);
  if (!model) throw new ModelDownloadError(unknownModelMessage(name));
  const dir = whisperModelsDir(options.dataDir);
  const target = path.join(dir, model.file);
  const base = (options.baseUrl ?? process.env.KIKITORI_WHISPER_MODEL_BASE_URL ?? DEFAULT_WHISPER_MODEL_BASE_URL).replace(/\/+$/, '');
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
    throw new ModelDownloadError(`Could not download the whisper model "${model.name}" from ${url} (${cause?.code ?? cause?.message ?? (error as Error).message}). ${offline}`);
  }
  if (!response.ok || !response.body) {
    throw new ModelDownloadError(`Could not download the whisper model "${model.name}": ${url} answered HTTP ${response.status}. ${offline}`);
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
          if (received > model.bytes) throw new ModelDownloadError(`The download of ${model.file} is larger than the expected ${model.bytes} bytes; not keeping it.`);
          sha256.update(chunk);
          options.onProgress?.(received, model.bytes);
          yield chunk;
        }
      },
      fs.createWriteStream(part),
      { signal: options.signal },
    );
    if (received !== model.bytes) {
      throw new ModelDownloadError(`The download of ${model.file} stopped at ${received} of ${model.bytes} bytes. Run the download again.`);
    }
    const digest = sha256.digest('hex');
    if (digest !== model.sha256) {
      throw new ModelDownloadError(`The download of ${model.file} has SHA-256 ${digest}, expected ${model.sha256}; not keeping it.`);
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
  if (!model) throw new ModelDownloadError(unknownModelMessage(name));
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

// ---------------------------------------------------------------------------------------------
// The ggml file format (whisper.cpp's legacy "ggml" container, magic 0x67676d6c)
// ---------------------------------------------------------------------------------------------

export const GGML_MAGIC = 0x67676d6c;
const QNT_VERSION_FACTOR = 1000;

export interface WhisperHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  /** Weight type (GGML_FTYPE_*), possibly with a quantization version * 1000. */
  ftype: number;
}

export const HPARAM_ORDER: (keyof WhisperHparams)[] = [
  'nVocab', 'nAudioCtx', 'nAudioState', 'nAudioHead', 'nAudioLayer', 'nTextCtx', 'nTextState', 'nTextHead', 'nTextLayer', 'nMels', 'ftype',
];

/** ggml tensor types: elements per block and bytes per block. */
export const GGML_TYPES: Record<number, { name: string; block: number; bytes: number }> = {
  0: { name: 'f32', block: 1, bytes: 4 },
  1: { name: 'f16', block: 1, bytes: 2 },
  2: { name: 'q4_0', block: 32, bytes: 18 },
  3: { name: 'q4_1', block: 32, bytes: 20 },
  6: { name: 'q5_0', block: 32, bytes: 22 },
  7: { name: 'q5_1', block: 32, bytes: 24 },
  8: { name: 'q8_0', block: 32, bytes: 34 },
  9: { name: 'q8_1', block: 32, bytes: 36 },
  10: { name: 'q2_k', block: 256, bytes: 84 },
  11: { name: 'q3_k', block: 256, bytes: 110 },
  12: { name: 'q4_k', block: 256, bytes: 144 },
  13: { name: 'q5_k', block: 256, bytes: 176 },
  14: { name: 'q6_k', block: 256, bytes: 210 },
  15: { name: 'q8_k', block: 256, bytes: 292 },
  30: { name: 'bf16', block: 1, bytes: 2 },
};

/** GGML_FTYPE_* -> the ggml type of the big weight matrices (ggml_ftype_to_ggml_type). */
const FTYPE_TO_TYPE: Record<number, number> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 8, 8: 6, 9: 7, 10: 10, 11: 11, 12: 12, 13: 13, 14: 14, 24: 30 };

/** f32: norms, biases, positional embeddings; weight: matrices in the file's weight type; conv: f16 unless the model is all-f32. */
export type TensorRole = 'f32' | 'weight' | 'conv';

export interface TensorSpec {
  name: string;
  /** ggml order: ne[0] is the fastest-varying dimension. */
  ne: number[];
  role: TensorRole;
}

/** Every tensor whisper_model_load() expects for these hyperparameters, in file order. */
export function whisperTensorLayout(h: WhisperHparams): TensorSpec[] {
  const specs: TensorSpec[] = [];
  const t = (name: string, role: TensorRole, ...ne: number[]) => specs.push({ name, ne, role });
  const S = h.nAudioState;
  const T = h.nTextState;
  const attention = (prefix: string, n: number) => {
    t(`${prefix}.query.weight`, 'weight', n, n);
    t(`${prefix}.query.bias`, 'f32', n);
    t(`${prefix}.key.weight`, 'weight', n, n);
    t(`${prefix}.value.weight`, 'weight', n, n);
    t(`${prefix}.value.bias`, 'f32', n);
    t(`${prefix}.out.weight`, 'weight', n, n);
    t(`${prefix}.out.bias`, 'f32', n);
  };
  const block = (prefix: string, n: number, cross: boolean) => {
    t(`${prefix}.attn_ln.weight`, 'f32', n);
    t(`${prefix}.attn_ln.bias`, 'f32', n);
    attention(`${prefix}.attn`, n);
    if (cross) {
      t(`${prefix}.cross_attn_ln.weight`, 'f32', n);
      t(`${prefix}.cross_attn_ln.bias`, 'f32', n);
      attention(`${prefix}.cross_attn`, n);
    }
    t(`${prefix}.mlp_ln.weight`, 'f32', n);
    t(`${prefix}.mlp_ln.bias`, 'f32', n);
    t(`${prefix}.mlp.0.weight`, 'weight', n, 4 * n);
    t(`${prefix}.mlp.0.bias`, 'f32', 4 * n);
    t(`${prefix}.mlp.2.weight`, 'weight', 4 * n, n);
    t(`${prefix}.mlp.2.bias`, 'f32', n);
  };
  t('encoder.positional_embedding', 'f32', S, h.nAudioCtx);
  t('encoder.conv1.weight', 'conv', 3, h.nMels, S);
  t('encoder.conv1.bias', 'f32', 1, S);
  t('encoder.conv2.weight', 'conv', 3, S, S);
  t('encoder.conv2.bias', 'f32', 1, S);
  for (let i = 0; i < h.nAudioLayer; i++) block(`encoder.blocks.${i}`, S, false);
  t('encoder.ln_post.weight', 'f32', S);
  t('encoder.ln_post.bias', 'f32', S);
  t('decoder.positional_embedding', 'f32', T, h.nTextCtx);
  t('decoder.token_embedding.weight', 'weight', T, h.nVocab);
  for (let i = 0; i < h.nTextLayer; i++) block(`decoder.blocks.${i}`, T, true);
  t('decoder.ln.weight', 'f32', T);
  t('decoder.ln.bias', 'f32', T);
  return specs;
}

/** The ggml type id of each tensor role for a file's ftype, or null for an unsupported ftype. */
export function tensorTypes(ftype: number): Record<TensorRole, number> | null {
  const weight = FTYPE_TO_TYPE[ftype % QNT_VERSION_FACTOR];
  if (weight === undefined) return null;
  return { f32: 0, weight, conv: weight === 0 ? 0 : 1 };
}

export function tensorBytes(ne: number[], type: number): number {
  const t = GGML_TYPES[type]!;
  const elements = ne.reduce((a, b) => a * b, 1);
  return (elements / t.block) * t.bytes;
}

export interface WhisperModelFile {
  path: string;
  bytes: number;
  hparams: WhisperHparams;
  multilingual: boolean;
  /** Token id of <|endoftext|>: ids at or above it are special (sot, languages, timestamps...). */
  eotToken: number;
  /** Bytes of text token `id` (ids below eotToken). */
  tokenBytes(id: number): Buffer | null;
  tensorCount: number;
}

export class InvalidModelFileError extends Error {
  override readonly name = 'InvalidModelFileError';
}

/** Sequential reader over a file handle with a large buffer; skips without reading. */
class FileCursor {
  private buffer = Buffer.alloc(0);
  private bufferStart = 0;
  position = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}

  private ensure(n: number): void {
    const offset = this.position - this.bufferStart;
    if (offset >= 0 && offset + n <= this.buffer.length) return;
    if (this.position + n > this.size) throw new InvalidModelFileError(`the file ends early (at byte ${this.size}, needed ${this.position + n})`);
    const length = Math.max(n, 1 << 20);
    const buffer = Buffer.alloc(Math.min(length, this.size - this.position));
    fs.readSync(this.fd, buffer, 0, buffer.length, this.position);
    this.buffer = buffer;
    this.bufferStart = this.position;
  }

  bytes(n: number): Buffer {
    this.ensure(n);
    const start = this.position - this.bufferStart;
    this.position += n;
    return this.buffer.subarray(start, start + n);
  }

  int32(): number {
    return this.bytes(4).readInt32LE(0);
  }

  uint32(): number {
    return this.bytes(4).readUInt32LE(0);
  }

  skip(n: number): void {
    if (this.position + n > this.size) throw new InvalidModelFileError(`the file ends early (at byte ${this.size}, needed ${this.position + n})`);
    this.position += n;
  }
}

/** Reads only the hyperparameters (cheap), or null when the file is missing or not a whisper ggml file. */
export function readWhisperHparams(file: string): WhisperHparams | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const head = Buffer.alloc(48);
    if (fs.readSync(fd, head, 0, 48, 0) < 48 || head.readUInt32LE(0) !== GGML_MAGIC) return null;
    return Object.fromEntries(HPARAM_ORDER.map((k, i) => [k, head.readInt32LE(4 + 4 * i)])) as unknown as WhisperHparams;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Validates a whisper ggml file the way whisper_model_load() reads it (header, hparams, mel filters,
 * vocabulary, every tensor's name, shape, type and length, nothing missing, nothing trailing).
 * Synchronous but cheap: about a megabyte read plus one small read per tensor.
 */
export function inspectWhisperModel(file: string): WhisperModelFile {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    throw new InvalidModelFileError(`cannot open ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  try {
    const size = fs.fstatSync(fd).size;
    const c = new FileCursor(fd, size);
    const bad = (why: string) => new InvalidModelFileError(`${file} is not a usable whisper.cpp ggml model: ${why}`);
    try {
      if (c.uint32() !== GGML_MAGIC) throw bad('wrong magic number (not a ggml file; GGUF and other formats are not supported)');
      const hparams = Object.fromEntries(HPARAM_ORDER.map((k) => [k, c.int32()])) as unknown as WhisperHparams;
      const h = hparams;
      if (h.nVocab < 51864 || h.nVocab > 52000) throw bad(`n_vocab ${h.nVocab} is not a whisper vocabulary`);
      for (const k of HPARAM_ORDER.filter((k) => k !== 'ftype')) {
        if (!(h[k] > 0 && h[k] < 1 << 20)) throw bad(`hyperparameter ${k} = ${h[k]} is out of range`);
      }
      if (h.nAudioState !== h.nTextState) throw bad('n_audio_state differs from n_text_state');
      if (h.nAudioState % h.nAudioHead !== 0 || h.nTextState % h.nTextHead !== 0) throw bad('state size is not a multiple of the head count');
      const types = tensorTypes(h.ftype);
      if (!types) throw bad(`unsupported weight type (ftype ${h.ftype})`);

      const nMel = c.int32();
      const nFft = c.int32();
      if (nMel !== h.nMels || nFft <= 0 || nFft > 4096) throw bad(`mel filter bank ${nMel}x${nFft} does not match n_mels ${h.nMels}`);
      c.skip(nMel * nFft * 4);

      const nTokens = c.int32();
      if (nTokens <= 0 || nTokens > h.nVocab) throw bad(`vocabulary of ${nTokens} tokens`);
      const offsets = new Uint32Array(nTokens + 1);
      const chunks: Buffer[] = [];
      let total = 0;
      for (let i = 0; i < nTokens; i++) {
        const len = c.uint32();
        if (len > 1024) throw bad(`token ${i} is ${len} bytes long`);
        const bytes = Buffer.from(c.bytes(len));
        chunks.push(bytes);
        offsets[i] = total;
        total += len;
      }
      offsets[nTokens] = total;
      const vocab = Buffer.concat(chunks, total);

      const expected = new Map(whisperTensorLayout(h).map((s) => [s.name, s]));
      const seen = new Set<string>();
      while (c.position < size) {
        const nDims = c.int32();
        const nameLength = c.int32();
        const ttype = c.int32();
        if (nDims < 1 || nDims > 4 || nameLength <= 0 || nameLength > 256) throw bad(`corrupt tensor header at byte ${c.position - 12}`);
        const ne = [1, 1, 1, 1];
        for (let i = 0; i < nDims; i++) ne[i] = c.int32();
        const name = c.bytes(nameLength).toString('latin1');
        const spec = expected.get(name);
        if (!spec) throw bad(`unknown tensor "${name}"`);
        if (seen.has(name)) throw bad(`tensor "${name}" appears twice`);
        seen.add(name);
        const want = [...spec.ne, 1, 1, 1].slice(0, 4);
        if (want.some((n, i) => n !== ne[i])) throw bad(`tensor "${name}" has shape [${ne.slice(0, nDims)}], expected [${spec.ne}]`);
        const type = types[spec.role];
        const fileType = GGML_TYPES[ttype];
        if (!fileType) throw bad(`tensor "${name}" has unknown type ${ttype}`);
        const nbytes = tensorBytes(spec.ne, type);
        const elements = spec.ne.reduce((a, b) => a * b, 1);
        if ((elements * fileType.bytes) / GGML_TYPES[type]!.block !== nbytes) throw bad(`tensor "${name}" has type ${fileType.name}, expected ${GGML_TYPES[type]!.name}`);
        c.skip(nbytes);
      }
      if (seen.size !== expected.size) {
        const missing = [...expected.keys()].filter((n) => !seen.has(n));
        throw bad(`${missing.length} of ${expected.size} tensors are missing (first: ${missing[0]}); the file is probably truncated`);
      }

      const multilingual = h.nVocab >= 51865;
      const eotToken = multilingual ? 50257 : 50256;
      return {
        path: file,
        bytes: size,
        hparams,
        multilingual,
        eotToken,
        tokenBytes: (id: number) => (id >= 0 && id < nTokens && id < eotToken ? vocab.subarray(offsets[id]!, offsets[id + 1]!) : null),
        tensorCount: seen.size,
      };
    } catch (error) {
      if (error instanceof InvalidModelFileError && !error.message.startsWith(file)) throw bad(error.message);
      throw error;
    }
  } finally {
    fs.closeSync(fd);
  }
}
