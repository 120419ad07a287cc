// npm run bench:vocabulary — custom vocabulary on a hard set (issue 28, decision 0058), before (the
// engine alone: pocketsphinx with the dictionary as its interpolated unigram model) and after (the same
// words through the phonetic vocabulary stage), side by side:
//  - 30 invented names and product terms (two of them two-word names) in ordinary sentences, half read
//    by festival's HTS voice and half by espeak-ng's en-us voice, plus 16 sentences holding no term;
//  - a team dictionary of 100 terms: the 30 spoken ones and 70 never spoken (some sounding like spoken
//    ones), and a 1,000-term one (the 100 plus 900 more) for the cost of a large dictionary;
//  - the set split into a tuning half (the stage's threshold is calibrated there, and checked by each run) and a held-out half,
//    each with both voices and one two-word name; the held-out half is the one to quote.
// Reports: term recall, false insertions per 1,000 words of term-free speech (and wrong terms put where
// another was said), the WER of the term-free sentences, and recognition time with 0, 100 and 1,000 terms.
// Audio is generated once into the bench's cache dir (speech-corpus.ts). BENCH_VERBOSE=1 prints the texts
// and the tuning half's sweep; BENCH_THRESHOLD=0.8 reports both halves at another threshold than the product's.
import fsp from 'node:fs/promises';
import type { TranscriptSegment } from '../src-shared/transcript-document.js';
import { editDistance } from '../src-shared/edit-distance.js';
import { seededRandom } from '../src-shared/seeded-random.js';
import { PocketsphinxEngine } from '../src-server/engines/speech/pocketsphinx-engine.js';
import type { VocabularyWord } from '../src-server/engines/speech/speech-engine.js';
import {
  DEFAULT_SINGLE_WORD_MARGIN,
  DEFAULT_VOCABULARY_THRESHOLD,
  PhoneticVocabularyStage,
} from '../src-server/engines/vocabulary/phonetic-vocabulary-stage.js';
import { AcousticChecker } from './vocabulary-acoustic.js';
import { concatenate, espeakWav, EVERYDAY_SENTENCES, festivalWav, pcmOf } from './speech-corpus.js';

interface SpokenTerm extends VocabularyWord {
  sentence: string;
}

/** The 30 spoken terms. Some carry a reading (a "sounds like" spelling), as a user would give for a few. */
const SPOKEN: SpokenTerm[] = [
  { word: 'Ostrevan', sentence: 'We flew to Ostrevan for the spring conference.' },
  { word: 'Zephyrion', reading: 'zeh fear ee on', sentence: 'The Zephyrion release fixed most of the bugs.' },
  { word: 'Fendral', sentence: 'Ask Fendral to send the slides before noon.' },
  { word: 'Ulvenhart', reading: 'ull ven heart', sentence: 'The contract with Ulvenhart ends in March.' },
  { word: 'Tremaine Ovosky', sentence: 'I spoke with Tremaine Ovosky about the hiring plan.' },
  { word: 'Quintaro', sentence: 'Our Quintaro servers ran out of memory last night.' },
  { word: 'Belvanix', sentence: 'Please install Belvanix on the new laptops.' },
  { word: 'Corvettra', sentence: 'The Corvettra dashboard shows the weekly sales.' },
  { word: 'Drelmont', sentence: 'The office in Drelmont closes early on Fridays.' },
  { word: 'Isolvane', reading: 'eye sol vane', sentence: 'Isolvane approved the budget yesterday.' },
  { word: 'Kravitsky', reading: 'kruh vit ski', sentence: 'Kravitsky asked for a copy of the invoice.' },
  { word: 'Nembrook', sentence: 'The Nembrook account is our biggest customer.' },
  { word: 'Paltrona', sentence: 'We moved the files to Paltrona last week.' },
  { word: 'Sorvik', sentence: 'Sorvik will join the call after lunch.' },
  { word: 'Thalomir', sentence: 'The Thalomir project is two weeks late.' },
  { word: 'Vendrasi', sentence: 'Vendrasi sent a new price list this morning.' },
  { word: 'Galbrecht', reading: 'gall brekt', sentence: 'Galbrecht reviewed the security report.' },
  { word: 'Orinthal', sentence: 'The Orinthal app crashed during the demo.' },
  { word: 'Lumexa', reading: 'loo mex uh', sentence: 'Lumexa sells cameras in twelve countries.' },
  { word: 'Brennick', sentence: 'Brennick will present the results on Monday.' },
  { word: 'Marvik Delacorte', sentence: 'Marvik Delacorte will lead the design review.' },
  { word: 'Casteval', sentence: 'The Casteval warehouse ran out of boxes.' },
  { word: 'Dunmarrow', sentence: 'Our team in Dunmarrow hired three engineers.' },
  { word: 'Ferolin', sentence: 'Ferolin is the name of our new chat tool.' },
  { word: 'Hestavo', reading: 'hess tah vo', sentence: 'The Hestavo printer needs new ink.' },
  { word: 'Jorvanta', sentence: 'Jorvanta signed the agreement on Tuesday.' },
  { word: 'Mirelda', sentence: 'Mirelda booked the room for the workshop.' },
  { word: 'Pendrova', sentence: 'Call Pendrova if the shipment is late.' },
  { word: 'Rakovane', sentence: 'The Rakovane update will ship next month.' },
  { word: 'Tolvessa', reading: 'tol vess uh', sentence: 'Tolvessa wants a faster database.' },
];

/** Never spoken, but sounding like spoken terms: what a team's dictionary really holds side by side. */
const CONFUSERS = [
  'Astrivon',
  'Fendrik',
  'Zephyra',
  'Belvanor',
  'Drelwood',
  'Pendrago',
  'Tolvanna',
  'Mirelle',
  'Lumexor',
  'Casterly',
];

/** Sentences holding no term: where any dictionary word that shows up is a false insertion. */
const TERM_FREE = [
  ...EVERYDAY_SENTENCES,
  'Send me the numbers from the second quarter by tonight.',
  'The new printer on the third floor is already broken.',
  'Most of the engineers prefer to work from home on Fridays.',
  'Let us talk about the travel plans for the summer.',
  'The manager wants a short report on the open tickets.',
  'Our biggest problem this year was the late delivery of parts.',
  'The doctor said the results would come back next week.',
  'We need two more chairs for the meeting room upstairs.',
  'The bus was late again so I walked to work.',
  'Please check the numbers before you send the email.',
  'My brother is moving to a new apartment in the spring.',
  'The store on the corner sells fresh bread every morning.',
  'We should plan a short trip after the busy season.',
  'The phone rang twice but nobody answered it.',
  'The teacher asked the students to read the first chapter.',
  'It took us an hour to find a place to park.',
  'The kitchen needs a new light above the table.',
  'Could you print three copies of the contract for tomorrow?',
  'The company will open a second office in the fall.',
  'He forgot his keys at home and had to wait outside.',
  'The price of coffee went up again this month.',
  'The river was too cold for swimming in April.',
];

/** Invented words from a seeded syllable generator: deterministic, and none is one of the spoken terms. */
function inventedWords(count: number, seed: number, avoid: ReadonlySet<string>): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const onsets = ['b', 'br', 'd', 'dr', 'f', 'g', 'gr', 'k', 'kr', 'l', 'm', 'n', 'p', 'r', 's', 't', 'tr', 'v', 'z'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ae', 'ei', 'ou'];
  const codas = ['', '', 'n', 'r', 'l', 's', 'x', 'nd', 'rk', 'st'];
  const out = new Set<string>();
  while (out.size < count) {
    const syllables = 2 + Math.floor(random() * 2);
    let word = '';
    for (let i = 0; i < syllables; i++) word += pick(onsets) + pick(vowels) + (i === syllables - 1 ? pick(codas) : '');
    word = word[0]!.toUpperCase() + word.slice(1);
    if (!avoid.has(word.toLowerCase())) out.add(word);
  }
  return [...out];
}

// ---------------------------------------------------------------------------------------------

const normalize = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z' ]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
const termKey = (word: string) => normalize(word).join(' ');
/** How many times the (normalized) phrase occurs in the words. */
function occurrences(words: readonly string[], phrase: string): number {
  const parts = phrase.split(' ');
  let n = 0;
  for (let i = 0; i + parts.length <= words.length; i++) if (parts.every((p, k) => words[i + k] === p)) n++;
  return n;
}

interface Clip {
  half: 'tuning' | 'held-out';
  voice: 'festival' | 'espeak';
  /** The spoken terms (empty for the term-free clips). */
  terms: SpokenTerm[];
  text: string;
  pcm: string;
}

async function clips(): Promise<Clip[]> {
  const out: Clip[] = [];
  const halfOf = (i: number) => (i % 4 < 2 ? 'tuning' : 'held-out');
  const voiceOf = (i: number) => (i % 2 === 0 ? 'festival' : 'espeak');
  for (const half of ['tuning', 'held-out'] as const)
    for (const voice of ['festival', 'espeak'] as const) {
      const speak = voice === 'festival' ? festivalWav : espeakWav;
      const terms = SPOKEN.filter((_, i) => halfOf(i) === half && voiceOf(i) === voice);
      const free = TERM_FREE.filter((_, i) => halfOf(i) === half && voiceOf(i) === voice);
      for (const [sentences, spoken] of [
        [terms.map((t) => t.sentence), terms],
        [free, []],
      ] as const) {
        const wavs = await Promise.all(sentences.map(speak));
        const wav = await concatenate(
          wavs,
          wavs.slice(1).map(() => 1),
        );
        out.push({ half, voice, terms: [...spoken], text: sentences.join(' '), pcm: await pcmOf(wav) });
      }
    }
  return out;
}

const signal = new AbortController().signal;

interface Recognized {
  clip: Clip;
  segments: TranscriptSegment[];
  engineMs: number;
}

async function recognizeAll(
  engine: PocketsphinxEngine,
  list: readonly Clip[],
  vocabulary: VocabularyWord[],
): Promise<Recognized[]> {
  const out: Recognized[] = [];
  for (const clip of list) {
    const started = performance.now();
    const result = await engine.recognize({ pcmPath: clip.pcm, language: 'en', vocabulary, signal });
    const engineMs = performance.now() - started;
    const segments = result.segments.map((s, id) => ({
      id,
      start: s.start,
      end: s.end,
      speaker: null,
      text: s.words.map((w) => w.word).join(' '),
      words: s.words,
    }));
    out.push({ clip, segments, engineMs });
  }
  return out;
}

interface Scores {
  found: number;
  terms: number;
  /** Dictionary terms in the term-free clips. */
  inserted: number;
  freeWords: number;
  /** Dictionary terms in the term clips that were not said there (e.g. a confuser for the spoken term). */
  wrongTerms: number;
  freeErrors: number;
}

function score(
  items: readonly { clip: Clip; segments: TranscriptSegment[] }[],
  dictionary: readonly string[],
  verbose = Boolean(process.env.BENCH_VERBOSE),
): Scores {
  const keys = dictionary.map(termKey);
  const s: Scores = { found: 0, terms: 0, inserted: 0, freeWords: 0, wrongTerms: 0, freeErrors: 0 };
  for (const { clip, segments } of items) {
    const hyp = normalize(segments.map((seg) => seg.words.map((w) => w.word).join(' ')).join(' '));
    if (verbose) console.error(`  [${clip.half}/${clip.voice}] ${hyp.join(' ')}`);
    const spoken = new Set(clip.terms.map((t) => termKey(t.word)));
    if (clip.terms.length > 0) {
      s.terms += clip.terms.length;
      for (const term of spoken) if (occurrences(hyp, term) > 0) s.found++;
      for (const key of keys) if (!spoken.has(key)) s.wrongTerms += occurrences(hyp, key);
    } else {
      const ref = normalize(clip.text);
      s.freeWords += ref.length;
      s.freeErrors += editDistance(ref, hyp);
      for (const key of keys) s.inserted += occurrences(hyp, key);
    }
  }
  return s;
}

async function applyStage(
  stage: PhoneticVocabularyStage,
  items: readonly Recognized[],
  vocabulary: readonly VocabularyWord[],
): Promise<{ items: { clip: Clip; segments: TranscriptSegment[] }[]; ms: number }> {
  const started = performance.now();
  const out: { clip: Clip; segments: TranscriptSegment[] }[] = [];
  for (const item of items)
    out.push({ clip: item.clip, segments: (await stage.apply(item.segments, vocabulary, 'en')).segments });
  return { items: out, ms: performance.now() - started };
}

/** Sorted thresholds as runs of 0.01 steps: "0.78–0.86, 0.90". */
function ranges(thresholds: readonly number[]): string {
  const runs: number[][] = [];
  for (const t of [...thresholds].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && Math.round((t - last.at(-1)!) * 100) === 1) last.push(t);
    else runs.push([t]);
  }
  return runs.map((r) => (r.length > 1 ? `${r[0]!.toFixed(2)}–${r.at(-1)!.toFixed(2)}` : r[0]!.toFixed(2))).join(', ');
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const perThousand = (n: number, words: number) => ((1000 * n) / words).toFixed(1);

/**
 * What the tuning half asks for: the most terms found minus the dictionary words put where they were not
 * said (false insertions and wrong terms), counted after the stage; of the settings that score best, the
 * largest margin and the thresholds that score best with it. The bench reports the product's own threshold
 * and margin (phonetic-vocabulary-stage.ts, the one place they live) and says whether they are among these.
 */
async function calibrate(
  tuning: readonly Recognized[],
  vocabulary: readonly VocabularyWord[],
): Promise<{ thresholds: number[]; margin: number; lines: string[] }> {
  const words = vocabulary.map((v) => v.word);
  const results: { threshold: number; margin: number; value: number }[] = [];
  const lines: string[] = [];
  for (const margin of [0, 0.02, 0.04, 0.06, 0.08])
    for (let t = 0.7; t <= 0.951; t += 0.01) {
      const threshold = Number(t.toFixed(2));
      const stage = new PhoneticVocabularyStage({ threshold, singleWordMargin: margin });
      const s = score((await applyStage(stage, tuning, vocabulary)).items, words, false);
      lines.push(
        `  threshold ${threshold.toFixed(2)} margin ${margin.toFixed(2)}: recall ${s.found}/${s.terms}, inserted ${s.inserted}, wrong ${s.wrongTerms}`,
      );
      results.push({ threshold, margin, value: s.found - s.inserted - s.wrongTerms });
    }
  const best = Math.max(...results.map((r) => r.value));
  const margin = Math.max(...results.filter((r) => r.value === best).map((r) => r.margin));
  const thresholds = results.filter((r) => r.value === best && r.margin === margin).map((r) => r.threshold);
  return { thresholds, margin, lines };
}

interface Candidate {
  item: number;
  word: number;
  half: Clip['half'];
  term: string;
  heard: string;
  delta: number;
  product: boolean;
  said: boolean;
}

/**
 * Decision 0099's experiment: the stage's candidates at a low threshold (0.6, no single-word margin), each
 * checked by acoustic evidence (vocabulary-acoustic.ts); a candidate is kept when the term's path score beats
 * the heard words' by more than a margin per frame. The margin is chosen on the tuning half (most terms
 * found minus insertions and wrong terms), and both halves are reported with it, against the product stage.
 */
async function acousticExperiment(
  items: readonly Recognized[],
  vocabulary: readonly VocabularyWord[],
  product: PhoneticVocabularyStage,
): Promise<void> {
  const words = vocabulary.map((v) => v.word);
  const low = new PhoneticVocabularyStage({ threshold: 0.6, singleWordMargin: 0 });
  const checker = await AcousticChecker.create(vocabulary);
  const lowOut: TranscriptSegment[][] = [];
  const candidates: Candidate[] = [];
  let checkMs = 0;
  for (const [i, item] of items.entries()) {
    const segs = (await low.apply(item.segments, vocabulary, 'en')).segments;
    lowOut.push(segs);
    const prod = (await product.apply(item.segments, vocabulary, 'en')).segments.flatMap((s) => s.words);
    const buf = await fsp.readFile(item.clip.pcm);
    const pcm = new Int16Array(buf.buffer, buf.byteOffset, buf.length >> 1);
    const flat = segs.flatMap((s) => s.words);
    for (const [k, w] of flat.entries()) {
      if (w.replaced?.source !== 'vocabulary') continue;
      const term = termKey(w.replaced.pattern).split(' ');
      const heard = normalize(w.replaced.original);
      const said = item.clip.terms.some((t) => termKey(t.word) === term.join(' '));
      const isProduct = prod.some((p) => p.start === w.start && p.replaced?.pattern === w.replaced!.pattern);
      let delta = -Infinity;
      if (checker.knows(term) && checker.knows(heard)) {
        const started = performance.now();
        const s = await checker.score(pcm, w.start, w.end, term, heard);
        checkMs += performance.now() - started;
        delta = (s.term - s.heard) / s.frames;
      }
      candidates.push({
        item: i,
        word: k,
        half: item.clip.half,
        term: term.join(' '),
        heard: heard.join(' '),
        delta,
        product: isProduct,
        said,
      });
    }
  }
  await checker.close();
  console.error(`acoustic: ${candidates.length} candidates, ${(checkMs / 1000).toFixed(2)} s of checking`);
  for (const c of [...candidates].sort((a, b) => b.delta - a.delta))
    console.error(
      `  [${c.half}] ${c.delta.toFixed(1).padStart(8)} ${c.said ? 'SAID ' : 'not  '}${c.product ? 'stage ' : '      '}${c.heard} -> ${c.term}`,
    );
  /** The low stage's output with only the accepted candidates rewritten (the others back to what was heard). */
  const outcome = (h: Clip['half'], accept: (c: Candidate) => boolean) =>
    score(
      items
        .map((item, i) => ({ item, i }))
        .filter(({ item }) => item.clip.half === h)
        .map(({ item, i }) => {
          const rejected = new Set(candidates.filter((c) => c.item === i && !accept(c)).map((c) => c.word));
          let k = 0;
          const segments = lowOut[i]!.map((s) => ({
            ...s,
            words: s.words.map((w) =>
              rejected.has(k++) ? { ...w, word: w.replaced!.original, replaced: undefined } : w,
            ),
          }));
          return { clip: item.clip, segments };
        }),
      words,
      false,
    );
  const margins = [...new Set(candidates.map((c) => c.delta).filter(Number.isFinite))].sort((a, b) => a - b);
  const rules: [string, (m: number) => (c: Candidate) => boolean][] = [
    ['acoustic alone', (m) => (c) => c.delta > m],
    ['stage or acoustic', (m) => (c) => c.product || c.delta > m],
    ['stage and acoustic', (m) => (c) => c.product && c.delta > m],
  ];
  const fmt = (s: Scores) =>
    `recall ${s.found}/${s.terms}, inserted ${s.inserted}, wrong ${s.wrongTerms}, WER errors ${s.freeErrors}`;
  for (const h of ['tuning', 'held-out'] as const)
    console.log(`acoustic: ${h} half, product stage: ${fmt(outcome(h, (c) => c.product))}`);
  for (const [name, rule] of rules) {
    let best = { value: -Infinity, margin: 0 };
    for (const m of [-Infinity, ...margins]) {
      const s = outcome('tuning', rule(m));
      const value = s.found - s.inserted - s.wrongTerms;
      if (value > best.value) best = { value, margin: m };
    }
    for (const h of ['tuning', 'held-out'] as const)
      console.log(
        `acoustic: ${name}, margin ${best.margin.toFixed(2)} per frame (tuned): ${h} ${fmt(outcome(h, rule(best.margin)))}`,
      );
  }
}

async function main(): Promise<void> {
  const spokenKeys = new Set(SPOKEN.flatMap((t) => normalize(t.word)));
  const confusers = new Set(CONFUSERS.map((w) => w.toLowerCase()));
  const extra70 = inventedWords(60, 28, new Set([...spokenKeys, ...confusers]));
  const team: VocabularyWord[] = [
    ...SPOKEN.map(({ word, reading }) => (reading ? { word, reading } : { word })),
    ...CONFUSERS.map((word) => ({ word })),
    ...extra70.map((word) => ({ word })),
  ];
  const large: VocabularyWord[] = [
    ...team,
    ...inventedWords(900, 2028, new Set([...spokenKeys, ...confusers, ...extra70.map((w) => w.toLowerCase())])).map(
      (word) => ({ word }),
    ),
  ];
  process.stderr.write('bench:vocabulary: generating speech (cached after the first run)...\n');
  // BENCH_HALF=tuning: only the tuning half and no 1,000-term run (for sweeps); BENCH_WORD_PROBABILITY and
  // BENCH_MIN_CONFIDENCE: the engine's vocabulary word probability and confidence gate instead of its defaults.
  const only = process.env.BENCH_HALF as Clip['half'] | undefined;
  const all = (await clips()).filter((c) => !only || c.half === only);
  const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const engine = new PocketsphinxEngine({
    vadLog: () => {},
    vocabularyWordProbability: numberFrom('BENCH_WORD_PROBABILITY'),
    vocabularyMinConfidence: numberFrom('BENCH_MIN_CONFIDENCE'),
  });
  // The first call loads the model: keep it out of the timings.
  await engine.recognize({ pcmPath: all[0]!.pcm, language: 'en', vocabulary: [], signal });

  const runs = new Map<number, Recognized[]>();
  for (const vocabulary of only ? [[], team] : [[], team, large]) {
    process.stderr.write(`bench:vocabulary: recognizing with ${vocabulary.length} terms...\n`);
    runs.set(vocabulary.length, await recognizeAll(engine, all, vocabulary));
  }
  const half = (list: Recognized[], h: Clip['half']) => list.filter((r) => r.clip.half === h);
  const tuned = await calibrate(half(runs.get(team.length)!, 'tuning'), team);
  if (process.env.BENCH_VERBOSE) console.error(tuned.lines.join('\n'));
  // Both halves are reported with the product's threshold and margin (BENCH_THRESHOLD: another threshold).
  const threshold = process.env.BENCH_THRESHOLD ? Number(process.env.BENCH_THRESHOLD) : DEFAULT_VOCABULARY_THRESHOLD;
  const stage = new PhoneticVocabularyStage({ threshold, singleWordMargin: DEFAULT_SINGLE_WORD_MARGIN });

  if (process.env.BENCH_ACOUSTIC) await acousticExperiment(runs.get(team.length)!, team, stage);

  const rows: string[][] = [];
  const teamWords = team.map((v) => v.word);
  for (const h of only ? [only] : (['tuning', 'held-out'] as const)) {
    const none = half(runs.get(0)!, h);
    const withTeam = half(runs.get(team.length)!, h);
    const columns = [
      score(none, teamWords),
      score(withTeam, teamWords),
      score((await applyStage(stage, withTeam, team)).items, teamWords),
      score((await applyStage(stage, none, team)).items, teamWords),
    ];
    const each = (f: (s: Scores) => string) => columns.map(f);
    rows.push([`${h} half (${columns[0]!.terms} terms, ${columns[0]!.freeWords} term-free words)`, '', '', '', '']);
    rows.push(['  term recall', ...each((s) => `${pct(s.found / s.terms)} (${s.found})`)]);
    rows.push([
      '  false insertions per 1,000 term-free words (count)',
      ...each((s) => `${perThousand(s.inserted, s.freeWords)} (${s.inserted})`),
    ]);
    rows.push(['  another dictionary term where a term was said', ...each((s) => String(s.wrongTerms))]);
    rows.push(['  WER of the term-free sentences', ...each((s) => pct(s.freeErrors / s.freeWords))]);
  }
  // Time over the held-out half: each dictionary size recognized again, in the reverse order of the first
  // pass, and the faster of the two kept (other work on the machine only ever adds time).
  for (const vocabulary of only ? [] : [large, team, []]) {
    const first = half(runs.get(vocabulary.length)!, 'held-out');
    const again = await recognizeAll(
      engine,
      first.map((r) => r.clip),
      vocabulary,
    );
    const engineMs = Math.min(...[first, again].map((list) => list.reduce((sum, r) => sum + r.engineMs, 0)));
    const stageMs = vocabulary.length === 0 ? 0 : (await applyStage(stage, first, vocabulary)).ms;
    rows.push([
      `recognition time, held-out half, ${vocabulary.length} terms`,
      '',
      `${(engineMs / 1000).toFixed(2)} s`,
      `${((engineMs + stageMs) / 1000).toFixed(2)} s (stage ${stageMs.toFixed(0)} ms)`,
      '',
    ]);
  }
  const onPlateau = tuned.margin === DEFAULT_SINGLE_WORD_MARGIN && tuned.thresholds.includes(threshold);
  console.log(
    `\nbench:vocabulary — pocketsphinx 5prealpha en-us; the stage at threshold ${threshold.toFixed(2)}, single-word ` +
      `margin ${DEFAULT_SINGLE_WORD_MARGIN.toFixed(2)}; the tuning half scores best at ${ranges(tuned.thresholds)} with margin ${tuned.margin.toFixed(2)} ` +
      `(${onPlateau ? 'the threshold is among them' : 'the threshold is not among them: recalibrate'})\n`,
  );
  const header = [
    'Measure',
    'No dictionary',
    '100 terms, engine alone (before)',
    '100 terms + vocabulary stage (after)',
    'Stage alone (engine without terms; info)',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
  engine.close();
}

await main();
