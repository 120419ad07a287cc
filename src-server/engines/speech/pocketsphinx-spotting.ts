// Keyword spotting for custom vocabulary (decision 0093): after pocketsphinx's n-gram pass, the stretches
// of an utterance it was unsure of are decoded again with its keyphrase search (kws: each dictionary term
// as a chain of phone HMMs, scored against a free phone loop), and a stretch is rewritten to a term only
// when the term's detection score is high enough for its length and the first pass doubted every word it
// replaces. The n-gram pass loses an invented name in a run of short English words ("or the wheel" for
// "Sorvik"); the keyphrase search has no language model to pull it towards English.
//
// The kws search is built once per decoder, after the vocabulary's pronunciations are in its dictionary
// (ps_set_kws after ps_load_dict: reloading the dictionary would rebuild every search), and switched to
// only between utterances (ps_set_search refuses mid-utterance).
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import koffi from 'koffi';
import { SAMPLE_RATE } from '../audio/ffmpeg.js';
import type { NativePointer, PocketsphinxLibrary } from './pocketsphinx-library.js';
import type { RecognizedWord } from './speech-engine.js';

interface SpottingBindings {
  ps_set_kws(ps: NativePointer, name: string, keyfile: string): number;
  ps_set_search(ps: NativePointer, name: string): number;
}

let bindings: SpottingBindings | undefined;

function bind(): SpottingBindings {
  const ps = koffi.load('libpocketsphinx.so.3');
  const p = 'void *';
  const setKws = ps.func('ps_set_kws', 'int', [p, 'str', 'str']);
  const setSearch = ps.func('ps_set_search', 'int', [p, 'str']);
  return {
    ps_set_kws: (decoder, name, file) => setKws(decoder, name, file),
    ps_set_search: (decoder, name) => setSearch(decoder, name),
  };
}

/** The search ps_init builds from -lm. */
const NGRAM_SEARCH = '_default';
const SPOTTING_SEARCH = 'kikitori-terms';
/**
 * The keyfile's threshold for every phrase: low enough that every plausible detection is reported with its
 * score; the decision is taken on that score here (spottingThreshold), where it can be calibrated per length.
 */
const KEYFILE_THRESHOLD = '1e-60';
/** Frames per second of the decoder (-frate default). */
const FRAME_RATE = 100;

/** A dictionary term as the spotter knows it. */
export interface SpottingTerm {
  /** Dictionary keys of its words, as the decoder spells them ("tremaine", "ovosky"). */
  keys: string[];
  /** Phones in its pronunciation (all words). */
  phones: number;
}

/** One keyphrase detection. */
export interface Detection {
  /** The term's keys joined by spaces (the keyphrase). */
  phrase: string;
  start: number;
  end: number;
  /** The keyphrase's path score minus the phone loop's over its frames (logmath units, higher is better). */
  score: number;
}

/**
 * Builds the decoder's keyphrase search over the terms (whose words must already be in its dictionary).
 * Returns false when pocketsphinx refuses it (the decoder then keeps its n-gram search only).
 */
export async function installSpotting(ps: NativePointer, terms: readonly SpottingTerm[]): Promise<boolean> {
  const phrases = [...new Set(terms.map((t) => t.keys.join(' ')))];
  if (phrases.length === 0) return false;
  bindings ??= bind();
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), `kikitori-kws-${randomUUID().slice(0, 8)}-`));
  try {
    const keyfile = path.join(dir, 'terms.kws');
    await fsp.writeFile(keyfile, phrases.map((p) => `${p} /${KEYFILE_THRESHOLD}/\n`).join(''));
    return bindings.ps_set_kws(ps, SPOTTING_SEARCH, keyfile) >= 0;
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the keyphrase search over `samples` (one utterance of its own) and returns its detections, then
 * switches the decoder back to its n-gram search. Throws on a native failure (the caller frees the decoder).
 */
export async function spotTerms(
  lib: PocketsphinxLibrary,
  ps: NativePointer,
  samples: Int16Array,
  offsetSeconds: number,
): Promise<Detection[]> {
  const b = (bindings ??= bind());
  if (samples.length < SAMPLE_RATE / 10 || b.ps_set_search(ps, SPOTTING_SEARCH) < 0) return [];
  try {
    if (lib.ps_start_utt(ps) < 0) throw new Error('pocketsphinx: ps_start_utt failed (keyword spotting)');
    const frames = await lib.processRaw(ps, samples, true);
    if ((await lib.ps_end_utt(ps)) < 0 || frames < 0) throw new Error('pocketsphinx: keyword spotting failed');
    const out: Detection[] = [];
    const sf: [number] = [0];
    const ef: [number] = [0];
    const unused: [number] = [0];
    for (let seg = await lib.ps_seg_iter(ps); seg; seg = lib.ps_seg_next(seg)) {
      lib.ps_seg_frames(seg, sf, ef);
      out.push({
        // The search keeps the keyfile line's spacing ("galbrecht ").
        phrase: lib.ps_seg_word(seg).trim(),
        start: offsetSeconds + sf[0] / FRAME_RATE,
        end: offsetSeconds + (ef[0] + 1) / FRAME_RATE,
        score: lib.ps_seg_prob(seg, unused, unused, unused),
      });
    }
    return out;
  } finally {
    if (b.ps_set_search(ps, NGRAM_SEARCH) < 0)
      throw new Error('pocketsphinx: could not switch back to the n-gram search');
  }
}

export interface SpottingOptions {
  /** A word the first pass wrote with at least this (calibrated) confidence is never rewritten. */
  maxConfidence: number;
  /** The lowest detection score per phone of the term that rewrites a stretch. */
  minScorePerPhone: number;
  /** Audio kept around a doubtful stretch when it is decoded again (seconds). */
  padding: number;
}

/**
 * Where the first pass doubted: maximal runs of words below `maxConfidence` (and of words the engine
 * dropped as doubtful), widened by `padding` and merged when they touch, within [from, to].
 */
export function doubtfulStretches(
  words: readonly RecognizedWord[],
  options: Pick<SpottingOptions, 'maxConfidence' | 'padding'>,
  from: number,
  to: number,
): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const sorted = [...words].sort((a, b) => a.start - b.start);
  for (const w of sorted) {
    if (!isDoubtful(w, options.maxConfidence)) continue;
    const start = Math.max(from, w.start - options.padding);
    const end = Math.min(to, w.end + options.padding);
    const last = out[out.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}

const isDoubtful = (w: RecognizedWord, maxConfidence: number) => w.confidence !== null && w.confidence < maxConfidence;

/**
 * Rewrites the first pass's words where a term was spotted: a detection scoring at least
 * `minScorePerPhone` per phone replaces the words it covers (more than half of each word's time) when the
 * first pass doubted all of them and they do not already hold the term ("tremaine of asking" may become
 * "tremaine ovosky"). The best detections go
 * first; one that overlaps a rewrite already made is dropped, so of two similar terms the better-scoring
 * wins. The term's words carry dictionary keys (the engine respells them) and share the detection's time
 * by phones; their confidence is the lowest of the words they replace.
 */
export function applySpotting(
  words: readonly RecognizedWord[],
  detections: readonly Detection[],
  terms: ReadonlyMap<string, SpottingTerm>,
  options: Pick<SpottingOptions, 'maxConfidence' | 'minScorePerPhone'>,
): RecognizedWord[] {
  const candidates = detections
    .map((d) => ({ d, term: terms.get(d.phrase) }))
    .filter((c): c is { d: Detection; term: SpottingTerm } => c.term !== undefined && c.term.phones > 0)
    .map((c) => ({ ...c, perPhone: c.d.score / c.term.phones }))
    .filter((c) => c.perPhone >= options.minScorePerPhone)
    .sort((a, b) => b.perPhone - a.perPhone);
  const covered = (w: RecognizedWord, d: Detection) =>
    Math.min(w.end, d.end) - Math.max(w.start, d.start) > (w.end - w.start) / 2;
  const replaced = new Set<RecognizedWord>();
  const taken: Detection[] = [];
  const inserts: { at: RecognizedWord; words: RecognizedWord[] }[] = [];
  for (const { d, term } of candidates) {
    if (taken.some((t) => t.start < d.end && d.start < t.end)) continue;
    const under = words.filter((w) => covered(w, d));
    if (under.length === 0) continue;
    if (under.some((w) => replaced.has(w) || !isDoubtful(w, options.maxConfidence))) continue;
    if (` ${under.map((w) => w.word).join(' ')} `.includes(` ${d.phrase} `)) continue;
    taken.push(d);
    for (const w of under) replaced.add(w);
    const confidence = Math.min(...under.map((w) => w.confidence ?? 1));
    const start = Math.min(d.start, under[0]!.start);
    const end = Math.max(d.end, under[under.length - 1]!.end);
    const step = (end - start) / term.keys.length;
    inserts.push({
      at: under[0]!,
      words: term.keys.map((key, i) => ({
        word: key,
        start: round(start + i * step),
        end: round(i === term.keys.length - 1 ? end : start + (i + 1) * step),
        confidence,
      })),
    });
  }
  if (inserts.length === 0) return [...words];
  const out: RecognizedWord[] = [];
  for (const w of words) {
    const insert = inserts.find((i) => i.at === w);
    if (insert) out.push(...insert.words);
    else if (!replaced.has(w)) out.push(w);
  }
  return out;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
