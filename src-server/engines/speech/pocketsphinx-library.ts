// koffi binding to the system pocketsphinx 5prealpha (libpocketsphinx.so.3) and sphinxbase
// (libsphinxbase.so.3). Only the handful of functions the engine needs are declared, and the
// libraries are opened on first use so the server starts (and other engines work) without them.
//
// Pitfalls worth knowing (see also the engine):
// - cmd_ln_init is variadic: koffi wants every extra argument as a (type, value) pair and the list
//   must end with a NULL `str`; variadic functions cannot be called with `.async`.
// - Pointers are anonymous opaque types (no koffi type names) because koffi's type registry is
//   process-global and re-registering a name throws (e.g. when test files share a worker).
// - Everything slow runs through koffi's `.async` (libuv thread pool) so the HTTP server sharing the
//   event loop stays responsive: ps_init (~0.25 s: LM + dictionary), ps_add_word with update
//   (~0.1 s search rebuild), ps_process_raw (~0.08 x real time), ps_end_utt (fwdflat + bestpath,
//   ~0.7 s for a 28 s utterance) and ps_seg_iter (lattice posteriors). koffi passes a
//   Buffer/TypedArray by pointer without copying, so the caller must keep the samples referenced
//   until the promise settles, and must never call into one decoder concurrently (a decoder is
//   not thread-safe; separate decoders on separate threads are fine).
// - Logging: ps_init's `-logfn` calls err_set_logfile(), which fclose()s the global log FILE that
//   a decoder running on a worker thread may be writing to. So we never pass -logfn; we disable
//   sphinxbase's (global) logging once with err_set_logfp(NULL) instead.
// - ps_lookup_word returns a malloc'd string: declared as a raw pointer, decoded, then ckd_free'd.
// - ps_seg_next frees the iterator when it returns NULL, so callers iterate to the end (there is
//   no ps_seg_free binding).

import fs from 'node:fs';
import path from 'node:path';
import koffi from 'koffi';
import { EngineError } from '../../domain/engine-error.js';

/** Opaque native pointer as handed out by koffi. */
/** An opaque pointer koffi hands back; only pocketsphinx itself looks inside. */
export interface NativePointer {
  readonly __koffiPointer: never;
}

export interface PocketsphinxLibrary {
  /** Builds a decoder config from `-flag value` pairs (cmd_ln_init with ps_args()). Null on bad args. */
  createConfig(args: Record<string, string>): NativePointer | null;
  cmd_ln_free_r(config: NativePointer): number;
  /** Async: loads the model (~0.25 s). */
  ps_init(config: NativePointer): Promise<NativePointer | null>;
  ps_free(ps: NativePointer): number;
  /** Async. Returns the new word id, or -1 (unknown phone, word already present...). */
  ps_add_word(ps: NativePointer, word: string, phones: string, update: boolean): Promise<number>;
  /** Pronunciation of `word` in the decoder's dictionary, or null. */
  lookupWord(ps: NativePointer, word: string): string | null;
  ps_start_utt(ps: NativePointer): number;
  /** Async (thread pool): number of frames searched, or < 0 on error. */
  processRaw(ps: NativePointer, samples: Int16Array, fullUtt: boolean): Promise<number>;
  /** The first pass's best hypothesis of the open utterance so far (a backtrace: cheap, synchronous), or null. */
  ps_get_hyp(ps: NativePointer): string | null;
  /** Async: runs the second passes (fwdflat, bestpath). */
  ps_end_utt(ps: NativePointer): Promise<number>;
  /** Async: computes lattice posteriors on first call. */
  ps_seg_iter(ps: NativePointer): Promise<NativePointer | null>;
  ps_seg_next(seg: NativePointer): NativePointer | null;
  ps_seg_word(seg: NativePointer): string;
  ps_seg_frames(seg: NativePointer, outStart: [number], outEnd: [number]): void;
  ps_seg_prob(seg: NativePointer, outAscr: [number], outLscr: [number], outLback: [number]): number;
  /**
   * The lattice posteriors (log, in the decoder's base) of the words starting at frame `startFrame`
   * whose base word is `baseWord`, other than `except` itself ("word(2)" beside "word"): the mass a
   * segment's alternate pronunciations took from it. Call after ps_seg_iter (which computes them).
   */
  alternatePosteriors(ps: NativePointer, baseWord: string, startFrame: number, except: string): number[];
  ps_get_logmath(ps: NativePointer): NativePointer;
  logmath_exp(logmath: NativePointer, logValue: number): number;
  /** The n-gram model inside the default search's LM set (where unigrams can be added), or null. */
  currentLm(ps: NativePointer): NativePointer | null;
  /** Word id in that model; negative when the model does not know the word. */
  ngram_wid(lm: NativePointer, word: string): number;
  /** Adds a unigram (probability weight / vocabulary size); returns its id or -1. */
  ngram_model_add_word(lm: NativePointer, word: string, weight: number): number;
}

/** Bound libraries by the path they were loaded from ('' for the system's sonames). */
const cached = new Map<string, PocketsphinxLibrary>();

/** koffi reports a failed async call with an Error or a message string. */
export function nativeError(err: unknown): Error {
  return err instanceof Error ? err : new Error(typeof err === 'string' ? err : 'The native call failed.');
}

/** Runs a bound function on koffi's worker pool. */
function callAsync<T>(fn: koffi.KoffiFunction, ...args: unknown[]): Promise<T> {
  return new Promise((resolve, reject) => {
    fn.async(...args, (err: unknown, res: T) => (err ? reject(nativeError(err)) : resolve(res)));
  });
}

/** The system library names (Debian's libpocketsphinx3 and libsphinxbase3). */
export const POCKETSPHINX_SONAME = 'libpocketsphinx.so.3';
const SPHINXBASE_SONAME = 'libsphinxbase.so.3';

/**
 * What users read when the built-in engine is missing: the macOS and Windows installers never carry
 * pocketsphinx, and a Linux server may lack it. whisper is the way on; the detail names the library.
 */
export const POCKETSPHINX_MISSING_MESSAGE =
  'The built-in English speech engine is not installed on this computer. ' +
  'Download a speech model in Settings → Speech recognition (on a server: kikitori-server models download base), then transcribe again.';

/**
 * Opens the libraries once per path; throws an 'unavailable' EngineError that says what is missing.
 * `libraryPath`: a libpocketsphinx file (KIKITORI_POCKETSPHINX_LIBRARY); default: the system's.
 */
export function loadPocketsphinx(libraryPath?: string): PocketsphinxLibrary {
  const key = libraryPath ?? '';
  let lib = cached.get(key);
  if (!lib) {
    lib = bind(libraryPath);
    cached.set(key, lib);
  }
  return lib;
}

function open(file: string): koffi.IKoffiLib {
  try {
    return koffi.load(file);
  } catch (err) {
    throw new EngineError('unavailable', POCKETSPHINX_MISSING_MESSAGE, {
      detail:
        `pocketsphinx is missing: cannot load ${file} (${(err as Error).message}). ` +
        'On Debian: apt-get install libpocketsphinx3 pocketsphinx-en-us; elsewhere set KIKITORI_POCKETSPHINX_LIBRARY, or use whisper (KIKITORI_ENGINE_DEFAULT=whisper)',
      cause: err,
    });
  }
}

function bind(libraryPath: string | undefined): PocketsphinxLibrary {
  // pocketsphinx first: loading it brings in the sphinxbase it was linked with, which the second
  // load then finds by its soname when no copy sits next to it.
  const ps = open(libraryPath ?? POCKETSPHINX_SONAME);
  const sibling = libraryPath === undefined ? undefined : path.join(path.dirname(libraryPath), SPHINXBASE_SONAME);
  const sb = open(sibling !== undefined && fs.existsSync(sibling) ? sibling : SPHINXBASE_SONAME);

  const ptr = koffi.pointer(koffi.opaque());
  const int32Out = koffi.out(koffi.pointer('int32_t'));

  // sphinxbase
  const cmd_ln_init = sb.func('cmd_ln_init', ptr, [ptr, ptr, 'int32_t', '...']);
  const cmd_ln_free_r = sb.func('cmd_ln_free_r', 'int', [ptr]);
  const logmath_exp = sb.func('logmath_exp', 'double', [ptr, 'int']);
  const err_set_logfp = sb.func('err_set_logfp', 'void', [ptr]);
  const ckd_free = sb.func('ckd_free', 'void', [ptr]);
  const ngram_model_set_current = sb.func('ngram_model_set_current', 'const char *', [ptr]);
  const ngram_model_set_lookup = sb.func('ngram_model_set_lookup', ptr, [ptr, 'str']);
  const ngram_wid = sb.func('ngram_wid', 'int32_t', [ptr, 'str']);
  const ngram_model_add_word = sb.func('ngram_model_add_word', 'int32_t', [ptr, 'str', 'float']);

  // pocketsphinx
  const ps_args = ps.func('ps_args', ptr, []);
  const ps_init = ps.func('ps_init', ptr, [ptr]);
  const ps_free = ps.func('ps_free', 'int', [ptr]);
  const ps_add_word = ps.func('ps_add_word', 'int', [ptr, 'str', 'str', 'int']);
  const ps_lookup_word = ps.func('ps_lookup_word', ptr, [ptr, 'str']);
  const ps_start_utt = ps.func('ps_start_utt', 'int', [ptr]);
  // int ps_process_raw(ps_decoder_t *ps, int16 const *data, size_t n_samples, int no_search, int full_utt)
  const ps_process_raw = ps.func('ps_process_raw', 'int', [ptr, 'const int16_t *', 'size_t', 'int', 'int']);
  const ps_end_utt = ps.func('ps_end_utt', 'int', [ptr]);
  const ps_get_hyp = ps.func('ps_get_hyp', 'const char *', [ptr, int32Out]);
  const ps_seg_iter = ps.func('ps_seg_iter', ptr, [ptr]);
  const ps_seg_next = ps.func('ps_seg_next', ptr, [ptr]);
  const ps_seg_word = ps.func('ps_seg_word', 'const char *', [ptr]);
  const ps_seg_frames = ps.func('ps_seg_frames', 'void', [
    ptr,
    koffi.out(koffi.pointer('int')),
    koffi.out(koffi.pointer('int')),
  ]);
  const ps_seg_prob = ps.func('ps_seg_prob', 'int32_t', [ptr, int32Out, int32Out, int32Out]);
  const ps_get_logmath = ps.func('ps_get_logmath', ptr, [ptr]);
  const ps_get_lattice = ps.func('ps_get_lattice', ptr, [ptr]);
  const ps_latnode_iter = ps.func('ps_latnode_iter', ptr, [ptr]);
  const ps_latnode_iter_next = ps.func('ps_latnode_iter_next', ptr, [ptr]);
  const ps_latnode_iter_node = ps.func('ps_latnode_iter_node', ptr, [ptr]);
  const ps_latnode_times = ps.func('ps_latnode_times', 'int', [
    ptr,
    koffi.out(koffi.pointer('int16_t')),
    koffi.out(koffi.pointer('int16_t')),
  ]);
  const ps_latnode_word = ps.func('ps_latnode_word', 'const char *', [ptr, ptr]);
  const ps_latnode_baseword = ps.func('ps_latnode_baseword', 'const char *', [ptr, ptr]);
  const ps_latnode_prob = ps.func('ps_latnode_prob', 'int32_t', [ptr, ptr, ptr]);
  const ps_get_lm = ps.func('ps_get_lm', ptr, [ptr, 'str']);

  // Process-wide: silence sphinxbase's chatty INFO logging (see header comment for why not -logfn).
  err_set_logfp(null);

  return {
    createConfig(args) {
      const variadic: unknown[] = [];
      for (const [flag, value] of Object.entries(args)) variadic.push('str', flag, 'str', value);
      variadic.push('str', null); // NULL terminator of the argument list
      return cmd_ln_init(null, ps_args(), 1, ...variadic);
    },
    cmd_ln_free_r: (config) => cmd_ln_free_r(config),
    ps_init: (config) => callAsync(ps_init, config),
    ps_free: (decoder) => ps_free(decoder),
    ps_add_word: (decoder, word, phones, update) => callAsync(ps_add_word, decoder, word, phones, update ? 1 : 0),
    lookupWord(decoder, word) {
      const p = ps_lookup_word(decoder, word);
      if (!p) return null;
      try {
        return koffi.decode(p, 'char', -1) as string;
      } finally {
        ckd_free(p);
      }
    },
    ps_start_utt: (decoder) => ps_start_utt(decoder),
    // no_search = 0: search as we go; full_utt: the whole utterance in one call (batch CMN).
    processRaw: (decoder, samples, fullUtt) =>
      callAsync(ps_process_raw, decoder, samples, samples.length, 0, fullUtt ? 1 : 0),
    ps_end_utt: (decoder) => callAsync(ps_end_utt, decoder),
    ps_get_hyp: (decoder) => ps_get_hyp(decoder, [0]) as string | null,
    ps_seg_iter: (decoder) => callAsync(ps_seg_iter, decoder),
    ps_seg_next: (seg) => ps_seg_next(seg),
    ps_seg_word: (seg) => ps_seg_word(seg),
    ps_seg_frames: (seg, outStart, outEnd) => ps_seg_frames(seg, outStart, outEnd),
    ps_seg_prob: (seg, a, l, b) => ps_seg_prob(seg, a, l, b),
    alternatePosteriors(decoder, baseWord, startFrame, except) {
      const dag = ps_get_lattice(decoder);
      if (!dag) return [];
      const out: number[] = [];
      const fef: [number] = [0];
      const lef: [number] = [0];
      // The iterator frees itself when ps_latnode_iter_next runs off the end.
      for (let it = ps_latnode_iter(dag); it; it = ps_latnode_iter_next(it)) {
        const node = ps_latnode_iter_node(it);
        if (ps_latnode_times(node, fef, lef) !== startFrame) continue;
        if (ps_latnode_baseword(dag, node) !== baseWord || ps_latnode_word(dag, node) === except) continue;
        out.push(ps_latnode_prob(dag, node, null));
      }
      return out;
    },
    ps_get_logmath: (decoder) => ps_get_logmath(decoder),
    logmath_exp: (lmath, value) => logmath_exp(lmath, value),
    currentLm(decoder) {
      // "_default" is the search ps_init builds from -lm; its LM set holds one model.
      const set = ps_get_lm(decoder, '_default');
      const name = set ? (ngram_model_set_current(set) as string | null) : null;
      return name ? ngram_model_set_lookup(set, name) : null;
    },
    ngram_wid: (lm, word) => ngram_wid(lm, word),
    ngram_model_add_word: (lm, word, weight) => ngram_model_add_word(lm, word, weight),
  };
}
