// BENCH_DIAGNOSE=1 npm run bench:vocabulary (decision 0101): where the dictionary's cost on term-free speech
// comes from. The clips are recognized once without a dictionary and once with it per vocabulary word
// probability (BENCH_DIAGNOSE_PROBABILITIES, default "0.6"), with the engine's confidence gate off and each
// word's confidence replaced by the decoder's raw posterior, so that every gate can be replayed on the same
// decodes. For each probability and gate it reports, over the term-free clips, the word errors split into:
//  - "other words": the errors left when every run of dictionary words is replaced by what the decoder
//    without a dictionary wrote over the same time span, minus the errors without a dictionary: the
//    interpolated model and the bigger search changing words that are no term;
//  - "dictionary words": the errors the kept dictionary words add on top (a term where an everyday word was
//    said, or an insertion);
//  - "gate": what the gate's drops change (a dropped word leaves a gap);
// and an oracle "fallback": the gate's dropped words replaced by the no-dictionary decode's words there.
// The term clips give recall and wrong terms for the same settings. The gate replay judges a word on its own
// lattice posterior, not summed with its reading's alternate as the engine does (decision 0096), so terms
// with a reading can be dropped here where the engine keeps them.
import { editDistance } from '../src-shared/edit-distance.js';
import { alignedSteps } from '../src-shared/word-timing.js';
import { PocketsphinxEngine } from '../src-server/engines/speech/pocketsphinx-engine.js';
import type { RecognizedWord, VocabularyWord } from '../src-server/engines/speech/speech-engine.js';

export interface DiagnoseClip {
  half: string;
  voice: string;
  terms: readonly { word: string }[];
  text: string;
  pcm: string;
}

/** Lower-case words of a text, without punctuation: how the vocabulary bench compares words. */
export const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);

interface Word {
  word: string;
  start: number;
  end: number;
  posterior: number;
  term: boolean;
}

const signal = new AbortController().signal;

async function decode(
  engine: PocketsphinxEngine,
  clip: DiagnoseClip,
  vocabulary: VocabularyWord[],
  termWords: ReadonlySet<string>,
): Promise<Word[]> {
  const result = await engine.recognize({ pcmPath: clip.pcm, language: 'en', vocabulary, signal });
  return result.segments
    .flatMap((s) => s.words)
    .flatMap((w: RecognizedWord) =>
      normalize(w.word).map((word) => ({
        word,
        start: w.start,
        end: w.end,
        posterior: w.confidence ?? 1,
        term: termWords.has(word),
      })),
    );
}

/** `hyp` with each run of words picked by `replace` swapped for `base`'s words whose middle lies in the run's span. */
function splice(hyp: readonly Word[], base: readonly Word[], replace: (w: Word) => boolean): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < hyp.length;) {
    if (!replace(hyp[i]!)) {
      out.push(hyp[i++]!);
      continue;
    }
    let j = i;
    while (j < hyp.length && replace(hyp[j]!)) j++;
    const from = hyp[i]!.start;
    const to = hyp[j - 1]!.end;
    out.push(...base.filter((w) => (w.start + w.end) / 2 >= from && (w.start + w.end) / 2 < to));
    i = j;
  }
  return out;
}

export async function diagnose(clips: readonly DiagnoseClip[], team: VocabularyWord[]): Promise<void> {
  const termWords = new Set(team.flatMap((t) => normalize(t.word)));
  const termKeys = team.map((t) => normalize(t.word).join(' '));
  const probabilities = (process.env.BENCH_DIAGNOSE_PROBABILITIES ?? '0.6').split(',').map(Number);
  const gates = [0, 0.5, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1.01];
  const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const raw = {
    vadLog: () => {},
    vocabularyMinConfidence: 0,
    confidence: (e: { posterior: number }) => e.posterior,
    vocabularyShortWordPhones: numberFrom('BENCH_SHORT_WORD_PHONES'),
    vocabularyShortWordDecadesPerPhone: numberFrom('BENCH_SHORT_WORD_DECADES'),
  };
  const plain = new PocketsphinxEngine(raw);
  const base: Word[][] = [];
  for (const clip of clips) base.push(await decode(plain, clip, [], termWords));
  plain.close();
  const words = (list: readonly Word[]) => list.map((w) => w.word);
  const free = clips.map((c, i) => ({ c, i })).filter(({ c }) => c.terms.length === 0);
  const freeWords = free.reduce((n, { c }) => n + normalize(c.text).length, 0);
  const errors = (hyps: readonly (readonly Word[])[]) =>
    free.reduce((n, { c, i }) => n + editDistance(normalize(c.text), words(hyps[i]!)), 0);
  const e0 = errors(base);
  console.log(`\ndiagnose: ${free.length} term-free clips, ${freeWords} words; no dictionary: ${e0} errors`);
  for (const q of probabilities) {
    const engine = new PocketsphinxEngine({ ...raw, vocabularyWordProbability: q });
    const hyps: Word[][] = [];
    for (const clip of clips) hyps.push(await decode(engine, clip, team, termWords));
    engine.close();
    // Other words: every dictionary word's span back to the no-dictionary decode's words.
    const hybrid = hyps.map((h, i) => splice(h, base[i]!, (w) => w.term));
    const eHybrid = errors(hybrid);
    const changed = free.reduce((n, { i }) => n + editDistance(words(base[i]!), words(hybrid[i]!)), 0);
    // Hunks of the diff with the no-dictionary decode that hold no dictionary word: changes far from any term.
    const eFar = errors(hyps.map((h, i) => revertHunks(h, base[i]!, (w) => w.term)));
    console.log(
      `\nq ${q}: ${eFar - e0 >= 0 ? '+' : ''}${eFar - e0} errors from diff hunks holding no dictionary word (the rest is in hunks with one)`,
    );
    console.log(
      `q ${q}: other words: ${eHybrid} errors (${eHybrid - e0 >= 0 ? '+' : ''}${eHybrid - e0} against no dictionary; ` +
        `${changed} word edits between the two decodes outside the dictionary words' spans)`,
    );
    const countFound = (list: readonly Word[][]) =>
      clips.reduce(
        (n, c, i) =>
          n +
          c.terms.filter((t) => ` ${words(list[i]!).join(' ')} `.includes(` ${normalize(t.word).join(' ')} `)).length,
        0,
      );
    const countInserted = (list: readonly Word[][]) =>
      free.reduce((n, { i }) => n + list[i]!.filter((w) => w.term).length, 0);
    for (const g of gates) {
      const kept = (w: Word) => !w.term || w.posterior >= g;
      const gated = hyps.map((h) => h.filter(kept));
      const fallback = hyps.map((h, i) => splice(h, base[i]!, (w) => !kept(w)));
      // The diff hunks whose dictionary words the gate drops, back to the no-dictionary decode (the words the
      // doubtful term pulled along go back too).
      const hunkFallback = hyps.map((h, i) => revertHunks(h, base[i]!, (w) => !kept(w)));
      const eNoGate = errors(hyps);
      const eGate = errors(gated);
      const eFallback = errors(fallback);
      let found = 0;
      let terms = 0;
      let wrong = 0;
      let inserted = 0;
      let foundFallback = 0;
      for (const [i, clip] of clips.entries()) {
        const hyp = words(gated[i]!).join(' ');
        const spoken = clip.terms.map((t) => normalize(t.word).join(' '));
        const has = (text: string, key: string) => ` ${text} `.includes(` ${key} `);
        const count = (text: string, key: string) => ` ${text} `.split(` ${key} `).length - 1;
        if (spoken.length > 0) {
          terms += spoken.length;
          found += spoken.filter((k) => has(hyp, k)).length;
          foundFallback += spoken.filter((k) => has(words(fallback[i]!).join(' '), k)).length;
          wrong += termKeys.filter((k) => !spoken.includes(k)).reduce((n, k) => n + count(hyp, k), 0);
        } else inserted += termKeys.reduce((n, k) => n + count(hyp, k), 0);
      }
      console.log(
        `  gate ${g.toFixed(2)}: found ${found}/${terms} (fallback ${foundFallback}), wrong ${wrong}, inserted ${inserted} ` +
          `(${((1000 * inserted) / freeWords).toFixed(1)}/1000); term-free errors: ${eGate} = ${e0} none ` +
          `${fmt(eHybrid - e0)} other ${fmt(eNoGate - eHybrid)} dictionary words ${fmt(eGate - eNoGate)} gate; ` +
          `with the fallback ${eFallback}, hunk fallback ${errors(hunkFallback)} (found ${countFound(hunkFallback)}, inserted ${countInserted(hunkFallback)})`,
      );
    }
    if (process.env.BENCH_VERBOSE)
      for (const [i, clip] of clips.entries()) {
        const show = (list: readonly Word[]) =>
          list.map((w) => (w.term ? `[${w.word} ${w.posterior.toFixed(2)}]` : w.word)).join(' ');
        console.error(
          `  [${clip.half}/${clip.voice}${clip.terms.length ? '' : ' free'}] ref: ${normalize(clip.text).join(' ')}`,
        );
        console.error(`    none: ${show(base[i]!)}`);
        console.error(`    dict: ${show(hyps[i]!)}`);
      }
  }
}

/**
 * The word-level diff hunks between `base` and `hyp` (an LCS alignment): each hunk that holds a word picked by
 * `revert` in `hyp` is put back to `base`'s words, the others are kept. So "a term and the words it pulled along
 * with it" can be told from changes far from any term.
 */
function revertHunks(hyp: readonly Word[], base: readonly Word[], revert: (w: Word) => boolean): Word[] {
  const out: Word[] = [];
  let hunkHyp: Word[] = [];
  let hunkBase: Word[] = [];
  const flush = () => {
    out.push(...(hunkHyp.some(revert) ? hunkBase : hunkHyp));
    hunkHyp = [];
    hunkBase = [];
  };
  for (const { a, b } of alignedSteps(hyp, base, (w) => w.word)) {
    if (a && b) {
      flush();
      out.push(a);
    } else if (a) hunkHyp.push(a);
    else if (b) hunkBase.push(b);
  }
  flush();
  return out;
}

const fmt = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
