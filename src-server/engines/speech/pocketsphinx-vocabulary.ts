// Custom vocabulary for a pocketsphinx decoder without touching its n-gram trie.
//
// Why not ps_add_word / ngram_model_add_word: in sphinxbase 5prealpha (Debian's libsphinxbase3),
// unigrams added to a trie LM (every LM format loads into a trie in that version) corrupt memory
// once the search scores them: with ~8-10 added words spoken in the audio the process segfaults
// in lm_trie_score/bitarr_read_int25 (valgrind: reads before a freed block). Fewer words only
// make it rarer.
//
// Instead, per decoder:
//  1. the vocabulary words the LM lacks become a small unigram LM (ARPA, written to a temp file),
//     interpolated into the decoder's LM set (ngram_model_set_add + ngram_model_set_interp). The set
//     adds the models' *weighted* scores (share x p^lw x wip, lw the language weight, 6.5): so the
//     vocabulary model is read with the decoder's -lw and -wip, and its unigrams are set so that each
//     word scores like an English word of probability `wordProbability`, however many words there are
//     (decision 0083); every other word keeps 1 - VOCABULARY_SHARE / 2 of its probability;
//  2. the pronunciations (new words, and readings that differ from the dictionary as "word(2)"
//     alternates) are appended to a copy of the dictionary that replaces the decoder's
//     (ps_load_dict, which also rebuilds the search).
// Nothing is added to the big LM, so nothing reaches the buggy code path.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import koffi from 'koffi';
import { nativeError, type NativePointer, type PocketsphinxLibrary } from './pocketsphinx-library.js';
import { alignedSteps } from '../../../src-shared/word-timing.js';
import { ARPABET_PHONES } from './pronunciation.js';

interface VocabularyBindings {
  ngram_model_read(config: NativePointer, file: string, type: number, lmath: NativePointer): NativePointer | null;
  ngram_model_set_add(
    set: NativePointer,
    model: NativePointer,
    name: string,
    weight: number,
    reuseWidmap: number,
  ): NativePointer | null;
  ngram_model_set_interp(set: NativePointer, names: null, weights: null): NativePointer | null;
  ngram_model_free(model: NativePointer): number;
  ps_get_lm(ps: NativePointer, name: string): NativePointer | null;
  ps_get_config(ps: NativePointer): NativePointer;
  cmd_ln_float_r(config: NativePointer, name: string): number;
  /** Async (reads the dictionary, rebuilds the search). */
  ps_load_dict(ps: NativePointer, dict: string, fdict: string | null, format: string): Promise<number>;
}

/** sphinxbase's NGRAM_ARPA (enum ngram_file_type_e: INVALID = -1, AUTO, ARPA, BIN). */
const NGRAM_ARPA = 1;
/**
 * The interpolation weight given to ngram_model_set_add (which halves it: two models). Only a scale:
 * the words' probabilities are set in the ARPA file to make up for it (vocabularyUnigramLog10).
 */
const VOCABULARY_SHARE = 0.1;

let bindings: VocabularyBindings | undefined;

function bind(): VocabularyBindings {
  const sb = koffi.load('libsphinxbase.so.3');
  const ps = koffi.load('libpocketsphinx.so.3');
  // 'void *' accepts the opaque pointers handed out by pocketsphinx-library.ts's bindings.
  const p = 'void *';
  const read = sb.func('ngram_model_read', p, [p, 'str', 'int', p]);
  const setAdd = sb.func('ngram_model_set_add', p, [p, p, 'str', 'float', 'int']);
  const setInterp = sb.func('ngram_model_set_interp', p, [p, p, p]);
  const free = sb.func('ngram_model_free', 'int', [p]);
  const getLm = ps.func('ps_get_lm', p, [p, 'str']);
  const getConfig = ps.func('ps_get_config', p, [p]);
  const configFloat = sb.func('cmd_ln_float_r', 'double', [p, 'str']);
  const loadDict = ps.func('ps_load_dict', 'int', [p, 'str', 'str', 'str']);
  return {
    ngram_model_read: (config, file, type, lmath) => read(config, file, type, lmath),
    ngram_model_set_add: (set, model, name, weight, reuse) => setAdd(set, model, name, weight, reuse),
    ngram_model_set_interp: (set) => setInterp(set, null, null),
    ngram_model_free: (model) => free(model),
    ps_get_lm: (decoder, name) => getLm(decoder, name),
    ps_get_config: (decoder) => getConfig(decoder),
    cmd_ln_float_r: (config, name) => configFloat(config, name),
    ps_load_dict: (decoder, dict, fdict, format) =>
      new Promise((resolve, reject) =>
        loadDict.async(decoder, dict, fdict, format, (err: unknown, rc: number) =>
          err ? reject(nativeError(err)) : resolve(rc),
        ),
      ),
  };
}

export interface VocabularyEntry {
  /** Dictionary key (lower case, one token). */
  word: string;
  /** ARPAbet phones. */
  phones: string;
}

export interface InstallVocabularyOptions {
  /** The decoder's dictionary (copied, then extended). */
  dictPath: string;
  /** The unigram probability each vocabulary word gets, as an English word of the LM would (decision 0083). */
  wordProbability: number;
  /**
   * Words with fewer phones than this (their shortest pronunciation) get less (shortWordProbability); none
   * when absent.
   */
  shortWordPhones?: number;
  /** How many decades of probability a short word loses per phone it lacks (shortWordProbability). */
  shortWordDecadesPerPhone?: number;
}

/**
 * Makes the entries decodable by `ps` (see the header). Returns the words only the vocabulary model
 * knows (the big LM lacks them); entries with unknown phones or odd keys are skipped. Throws when
 * pocketsphinx refuses the files (the decoder is then unchanged).
 */
export async function installVocabulary(
  lib: PocketsphinxLibrary,
  ps: NativePointer,
  entries: readonly VocabularyEntry[],
  options: InstallVocabularyOptions,
): Promise<ReadonlySet<string>> {
  const valid = entries.filter(
    (e) => /^[^\s()]+$/.test(e.word) && e.phones.split(' ').every((ph) => ARPABET_PHONES.has(ph)),
  );
  if (valid.length === 0) return new Set();
  bindings ??= bind();
  const b = bindings;

  // Dictionary lines: new words as themselves, new pronunciations of known words as alternates.
  const lines: string[] = [];
  const pronunciations = new Map<string, string[]>();
  const known = (word: string) => {
    let list = pronunciations.get(word);
    if (!list) {
      list = [];
      for (let k = 1; ; k++) {
        const phones = lib.lookupWord(ps, k === 1 ? word : `${word}(${k})`);
        if (phones === null) break;
        list.push(phones);
      }
      pronunciations.set(word, list);
    }
    return list;
  };
  for (const { word, phones } of valid) {
    const list = known(word);
    if (list.includes(phones)) continue;
    lines.push(`${list.length === 0 ? word : `${word}(${list.length + 1})`} ${phones}`);
    list.push(phones);
  }
  // LM: the words the big model does not know.
  const lm = lib.currentLm(ps);
  const unknown = [...new Set(valid.map((e) => e.word))].filter((w) => !lm || lib.ngram_wid(lm, w) < 0);
  if (lines.length === 0 && unknown.length === 0) return new Set();

  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `kikitori-vocab-${randomUUID().slice(0, 8)}-`));
  try {
    if (unknown.length > 0) {
      const set = b.ps_get_lm(ps, '_default');
      if (!set) throw new Error('pocketsphinx: the decoder has no language model set');
      const config = b.ps_get_config(ps);
      const lmPath = path.join(dir, 'vocabulary.lm');
      const lw = b.cmd_ln_float_r(config, '-lw');
      const phoneCounts = new Map<string, number>();
      for (const { word, phones } of valid)
        phoneCounts.set(word, Math.min(phoneCounts.get(word) ?? Infinity, phones.split(' ').length));
      const log10Prob = (word: string) =>
        vocabularyUnigramLog10(
          shortWordProbability(
            options.wordProbability,
            phoneCounts.get(word)!,
            options.shortWordPhones ?? 0,
            options.shortWordDecadesPerPhone ?? 0,
          ),
          lw,
        );
      await fsp.writeFile(lmPath, arpaUnigrams(unknown, log10Prob));
      // Read with the decoder's configuration, as ps_init read the big model: that applies its language
      // weight (-lw) and word insertion penalty (-wip) to this model too. Read without them, the model
      // scored its words as if the language weight were 1: any vocabulary word outscored "the", and
      // pocketsphinx wrote dictionary words into speech that held none (decision 0083).
      const model = b.ngram_model_read(config, lmPath, NGRAM_ARPA, lib.ps_get_logmath(ps));
      if (!model) throw new Error('pocketsphinx: could not read the vocabulary language model');
      if (!b.ngram_model_set_add(set, model, 'kikitori-vocabulary', VOCABULARY_SHARE, 0)) {
        b.ngram_model_free(model);
        throw new Error('pocketsphinx: could not add the vocabulary language model');
      }
      b.ngram_model_set_interp(set, null, null);
    }
    const dictPath = path.join(dir, 'vocabulary.dict');
    await fsp.copyFile(options.dictPath, dictPath);
    if (lines.length > 0) await fsp.appendFile(dictPath, `\n${lines.join('\n')}\n`);
    // Also rebuilds the search over the (possibly extended) LM set.
    if ((await b.ps_load_dict(ps, dictPath, null, 'dict')) < 0)
      throw new Error('pocketsphinx: could not load the vocabulary dictionary');
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
  return new Set(unknown);
}

/**
 * Whether a word is one the decoder only knows through the vocabulary model and gave a raw posterior
 * below `minConfidence` (the engine drops those words). Where the audio fits no English word well (a
 * poor voice, noise), an invented word of the dictionary is often the search's best guess, with a low
 * posterior; the terms that were said mostly come out sure (decision 0083). A dropped word was no
 * English word either: what the engine heard there is unknown.
 */
export function isDoubtfulVocabularyWord(
  word: string,
  posterior: number | null,
  vocabularyOnly: ReadonlySet<string>,
  minConfidence: number,
): boolean {
  return vocabularyOnly.has(word) && posterior !== null && posterior < minConfidence;
}

/**
 * An utterance's words with the vocabulary's doubtful words settled by a decode of the same audio without the
 * vocabulary (decision 0101): the two word sequences are aligned (longest common subsequence), and each stretch
 * where they differ that holds a doubtful word is replaced by what the decode without the vocabulary wrote
 * there. A term the engine wrongly heard also changes the words around it (the language model's context, where
 * the words start and end): dropping the term alone left those changed words, and a gap. Stretches without a
 * doubtful word keep the vocabulary decode's words (the terms it is sure of and what they pulled along); a
 * stretch with a doubtful word and a term the gate kept keeps the term and loses only the doubtful word, as
 * without a fallback. Words are compared lower-cased, so a respelled term still matches.
 */
export function revertDoubtfulHunks<W extends { word: string }>(
  words: readonly W[],
  without: readonly W[],
  doubtful: ReadonlySet<W>,
  /** Vocabulary words the gate kept: a stretch holding one keeps it, and loses only its doubtful words. */
  kept: (word: W) => boolean,
): W[] {
  // The alignment as steps: a word both wrote, or one only one of them wrote.
  const steps = alignedSteps(words, without, (w) => w.word.toLowerCase()).map(({ a, b }) => ({
    word: a,
    without: b,
  }));
  // Stretches where they differ, each ended by ANCHOR words in a row that both wrote: one shared short word
  // inside a changed stretch ("sales brush AND every morning" / "sukus kritrun AND rewarding") is no anchor.
  const out: W[] = [];
  let hunk: typeof steps = [];
  const settle = () => {
    const isDoubtful = (s: (typeof steps)[number]) => s.word !== undefined && doubtful.has(s.word);
    const revert = hunk.some(isDoubtful) && !hunk.some((s) => s.word && !doubtful.has(s.word) && kept(s.word));
    for (const s of hunk) {
      const w = revert ? s.without : isDoubtful(s) ? undefined : s.word;
      if (w) out.push(w);
    }
    hunk = [];
  };
  for (let k = 0; k < steps.length; k++) {
    const s = steps[k]!;
    let run = 0;
    while (k + run < steps.length && steps[k + run]!.word && steps[k + run]!.without) run++;
    if (run >= ANCHOR || (run > 0 && (hunk.length === 0 || k + run === steps.length))) {
      settle();
      for (let r = 0; r < run; r++) out.push(steps[k + r]!.word!);
      k += run - 1;
    } else hunk.push(s);
  }
  settle();
  return out;
}

/** Words in a row both decodes wrote that end a changed stretch (revertDoubtfulHunks). */
const ANCHOR = 2;

/**
 * The log10 unigram probability to write for each vocabulary word so that, through the LM set, it scores
 * like a word of probability `wordProbability` in the big model. The set scores a word as
 * log(share / 2) + lw x log(p) + log(wip), the big model's words as lw x log(p) + log(wip) (its share,
 * 1 - share / 2, is ~1): the interpolation weight is not raised to the language weight, so it is made up
 * for here.
 */
export function vocabularyUnigramLog10(wordProbability: number, languageWeight: number): number {
  return Math.min(0, Math.log10(wordProbability) - Math.log10(VOCABULARY_SHARE / 2) / languageWeight);
}

/**
 * A vocabulary word's unigram probability: `wordProbability`, less `decadesPerPhone` decades for each phone its
 * pronunciation has fewer than `shortBelow` (decision 0101).
 */
export function shortWordProbability(
  wordProbability: number,
  phones: number,
  shortBelow: number,
  decadesPerPhone: number,
): number {
  return wordProbability * 10 ** (-decadesPerPhone * Math.max(0, shortBelow - phones));
}

/**
 * A unigram ARPA LM over `words`, each with the log10 probability given (one for all, or per word). The sentence markers are present
 * (sphinxbase expects them) but improbable, so that only the big model decides where sentences end. The
 * probabilities need not sum to one: the set never normalizes them, and a word's weight should not
 * depend on how many others the dictionary holds.
 */
export function arpaUnigrams(words: readonly string[], log10Prob: number | ((word: string) => number)): string {
  const p = (word: string) => (typeof log10Prob === 'number' ? log10Prob : log10Prob(word)).toFixed(4);
  return [
    '\\data\\',
    `ngram 1=${words.length + 2}`,
    '',
    '\\1-grams:',
    '-99.0000 <s> 0.0000',
    '-99.0000 </s> 0.0000',
    ...words.map((w) => `${p(w)} ${w} 0.0000`),
    '',
    '\\end\\',
    '',
  ].join('\n');
}
