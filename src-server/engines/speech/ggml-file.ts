// whisper.cpp's legacy "ggml" model container (magic 0x67676d6c): the hyperparameters, the tensor
// layout whisper_model_load() expects, and a structural check of a file before whisper.cpp sees it.
//
// Why the structural check: the smart-whisper binding calls whisper_print_timings() on the context
// whisper_init returned even when loading failed (NULL), so a truncated, corrupt or foreign file
// crashes the whole process instead of raising an error. inspectWhisperModel() walks the header,
// mel filters, vocabulary and every tensor header exactly as whisper_model_load() does and rejects
// anything it would reject. It also returns the vocabulary bytes, which the engine needs to rebuild
// words from token ids (the binding hands out token texts as lossy UTF-8: a Japanese character split
// over two tokens comes back as U+FFFD twice).
//
// A file it rejects is an EngineError of kind 'unavailable': the model is the server's, not the
// request's, and nothing works until an operator replaces it.
import fs from 'node:fs';
import { EngineError } from '../../domain/engine-error.js';

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
  'nVocab',
  'nAudioCtx',
  'nAudioState',
  'nAudioHead',
  'nAudioLayer',
  'nTextCtx',
  'nTextState',
  'nTextHead',
  'nTextLayer',
  'nMels',
  'ftype',
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
const FTYPE_TO_TYPE: Record<number, number> = {
  0: 0,
  1: 1,
  2: 2,
  3: 3,
  7: 8,
  8: 6,
  9: 7,
  10: 10,
  11: 11,
  12: 12,
  13: 13,
  14: 14,
  24: 30,
};

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

/** Why a file was refused; turned into the EngineError by inspectWhisperModel(), which knows the file. */
class Unreadable extends Error {}

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
    if (this.position + n > this.size)
      throw new Unreadable(`the file ends early (at byte ${this.size}, needed ${this.position + n})`);
    // Reading on from the buffer's end (the vocabulary) takes a megabyte at a time; after a skip over a
    // tensor's data only its next header is wanted, so a page will do: a 3 GB model is not read whole.
    const length = Math.max(n, this.position === this.bufferStart + this.buffer.length ? 1 << 20 : 1 << 12);
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
    if (this.position + n > this.size)
      throw new Unreadable(`the file ends early (at byte ${this.size}, needed ${this.position + n})`);
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
    return Object.fromEntries(
      HPARAM_ORDER.map((k, i) => [k, head.readInt32LE(4 + 4 * i)]),
    ) as unknown as WhisperHparams;
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
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new EngineError(
      'unavailable',
      `The speech model file cannot be opened (${why}). Check the configured model path.`,
      {
        detail: `cannot open ${file} (${why})`,
        cause: error,
      },
    );
  }
  try {
    const size = fs.fstatSync(fd).size;
    const c = new FileCursor(fd, size);
    const bad = (why: string) =>
      new EngineError(
        'unavailable',
        `The speech model file cannot be used: ${why}. Replace it with a freshly downloaded model.`,
        {
          detail: `${file} is not a usable whisper.cpp ggml model: ${why}`,
        },
      );
    try {
      if (c.uint32() !== GGML_MAGIC)
        throw bad('wrong magic number (not a ggml file; GGUF and other formats are not supported)');
      const hparams = Object.fromEntries(HPARAM_ORDER.map((k) => [k, c.int32()])) as unknown as WhisperHparams;
      const h = hparams;
      if (h.nVocab < 51864 || h.nVocab > 52000) throw bad(`n_vocab ${h.nVocab} is not a whisper vocabulary`);
      for (const k of HPARAM_ORDER.filter((k) => k !== 'ftype')) {
        if (!(h[k] > 0 && h[k] < 1 << 20)) throw bad(`hyperparameter ${k} = ${h[k]} is out of range`);
      }
      if (h.nAudioState !== h.nTextState) throw bad('n_audio_state differs from n_text_state');
      if (h.nAudioState % h.nAudioHead !== 0 || h.nTextState % h.nTextHead !== 0)
        throw bad('state size is not a multiple of the head count');
      const types = tensorTypes(h.ftype);
      if (!types) throw bad(`unsupported weight type (ftype ${h.ftype})`);

      const nMel = c.int32();
      const nFft = c.int32();
      if (nMel !== h.nMels || nFft <= 0 || nFft > 4096)
        throw bad(`mel filter bank ${nMel}x${nFft} does not match n_mels ${h.nMels}`);
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
        if (nDims < 1 || nDims > 4 || nameLength <= 0 || nameLength > 256)
          throw bad(`corrupt tensor header at byte ${c.position - 12}`);
        const ne = [1, 1, 1, 1];
        for (let i = 0; i < nDims; i++) ne[i] = c.int32();
        const name = c.bytes(nameLength).toString('latin1');
        const spec = expected.get(name);
        if (!spec) throw bad(`unknown tensor "${name}"`);
        if (seen.has(name)) throw bad(`tensor "${name}" appears twice`);
        seen.add(name);
        const want = [...spec.ne, 1, 1, 1].slice(0, 4);
        if (want.some((n, i) => n !== ne[i]))
          throw bad(`tensor "${name}" has shape [${ne.slice(0, nDims).join(',')}], expected [${spec.ne.join(',')}]`);
        const type = types[spec.role];
        const fileType = GGML_TYPES[ttype];
        if (!fileType) throw bad(`tensor "${name}" has unknown type ${ttype}`);
        const nbytes = tensorBytes(spec.ne, type);
        const elements = spec.ne.reduce((a, b) => a * b, 1);
        if ((elements * fileType.bytes) / GGML_TYPES[type]!.block !== nbytes)
          throw bad(`tensor "${name}" has type ${fileType.name}, expected ${GGML_TYPES[type]!.name}`);
        c.skip(nbytes);
      }
      if (seen.size !== expected.size) {
        const missing = [...expected.keys()].filter((n) => !seen.has(n));
        throw bad(
          `${missing.length} of ${expected.size} tensors are missing (first: ${missing[0]}); the file is probably truncated`,
        );
      }

      const multilingual = h.nVocab >= 51865;
      const eotToken = multilingual ? 50257 : 50256;
      return {
        path: file,
        bytes: size,
        hparams,
        multilingual,
        eotToken,
        tokenBytes: (id: number) =>
          id >= 0 && id < nTokens && id < eotToken ? vocab.subarray(offsets[id], offsets[id + 1]) : null,
        tensorCount: seen.size,
      };
    } catch (error) {
      if (error instanceof Unreadable) throw bad(error.message);
      throw error;
    }
  } finally {
    fs.closeSync(fd);
  }
}

const problems = new Map<string, { key: string; problem: string | null }>();

/**
 * Why whisper.cpp could not load this file (inspectWhisperModel's detail), or null when it can. Kept per
 * file until the file changes (size, mtime, inode), so engine `auto` and the model list may ask on every
 * job and every listing. Null for a missing file too: callers decide what absence means.
 */
export function whisperModelProblem(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return null;
  }
  const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
  const known = problems.get(file);
  if (known?.key === key) return known.problem;
  let problem: string | null = null;
  try {
    inspectWhisperModel(file);
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    problem = error.detail ?? error.message;
  }
  problems.set(file, { key, problem });
  return problem;
}
