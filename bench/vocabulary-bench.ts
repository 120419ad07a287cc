// npm run bench:vocabulary — custom vocabulary on a hard set (issue 28, decision 0058), before (the
// engine alone: pocketsphinx with the dictionary as its interpolated unigram model) and after (the same
// words through the phonetic vocabulary stage), side by side:
//  - 100 invented terms, each in an ordinary sentence: 50 names, 10 two-word names, 11 that sound like
//    everyday words (Sunmore, Clearpath; the everyday words are said in the term-free sentences), 21 with a
//    sound-alike in the dictionary never said (Velmora and Belmora), 8 products (Marlix Pro); 15 carry a
//    reading. Read in three voices: festival's HTS voice, espeak-ng en-us and espeak-ng en-gb+m3;
//  - 73 sentences holding no term (about 680 words), in the same three voices;
//  - a team dictionary of 170 terms: the 100 spoken, 21 sound-alikes never spoken and 49 invented words;
//    a 1,000-term one (the 170 plus 830 more) and a 100-term one, for the time they cost;
//  - the set split into a tuning half (the stage's threshold is calibrated there, and checked by each run)
//    and a held-out half, each with every kind of term in every voice; the held-out half is the one to quote.
// Reports: term recall (also by voice and by kind of term), false insertions per 1,000 words of term-free
// speech (and wrong terms put where another was said), the WER of the term-free sentences, and recognition
// time with 0, 100, 170 and 1,000 terms. Audio is generated once into the bench's cache dir
// (speech-corpus.ts). BENCH_VERBOSE=1 prints the texts, the tuning half's sweep and the terms missed,
// inserted and mistaken, and each rewrite the stage made; BENCH_THRESHOLD=0.8 reports both halves at another
// threshold than the product's; BENCH_DECODES=file keeps the decodes for the next run (decision 0104);
// BENCH_REACH=1 says how far the stage could reach for each missed term (decision 0104).
import fs from 'node:fs';
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
import { diagnose, normalize } from './vocabulary-diagnose.js';
import { concatenate, espeakWav, EVERYDAY_SENTENCES, festivalWav, pcmOf } from './speech-corpus.js';

type Category = 'name' | 'two-word' | 'everyday' | 'sound-alike' | 'product';

interface SpokenTerm extends VocabularyWord {
  sentence: string;
  category: Category;
}

const term = (category: Category, word: string, sentence: string, reading?: string): SpokenTerm =>
  reading ? { word, reading, sentence, category } : { word, sentence, category };

/**
 * The 102 spoken terms, each in an ordinary sentence. Some carry a reading (a "sounds like" spelling), as a
 * user would give for a few (15). The first 30 are the set's first version (decision 0058); the ten of them
 * with a sound-alike never said (CONFUSERS) count as sound-alike.
 */
const SPOKEN: SpokenTerm[] = [
  term('sound-alike', 'Ostrevan', 'We flew to Ostrevan for the spring conference.'),
  term('sound-alike', 'Zephyrion', 'The Zephyrion release fixed most of the bugs.', 'zeh fear ee on'),
  term('sound-alike', 'Fendral', 'Ask Fendral to send the slides before noon.'),
  term('name', 'Ulvenhart', 'The contract with Ulvenhart ends in March.', 'ull ven heart'),
  term('two-word', 'Tremaine Ovosky', 'I spoke with Tremaine Ovosky about the hiring plan.'),
  term('name', 'Quintaro', 'Our Quintaro servers ran out of memory last night.'),
  term('sound-alike', 'Belvanix', 'Please install Belvanix on the new laptops.'),
  term('name', 'Corvettra', 'The Corvettra dashboard shows the weekly sales.'),
  term('sound-alike', 'Drelmont', 'The office in Drelmont closes early on Fridays.'),
  term('name', 'Isolvane', 'Isolvane approved the budget yesterday.', 'eye sol vane'),
  term('name', 'Kravitsky', 'Kravitsky asked for a copy of the invoice.', 'kruh vit ski'),
  term('name', 'Nembrook', 'The Nembrook account is our biggest customer.'),
  term('name', 'Paltrona', 'We moved the files to Paltrona last week.'),
  term('name', 'Sorvik', 'Sorvik will join the call after lunch.'),
  term('name', 'Thalomir', 'The Thalomir project is two weeks late.'),
  term('name', 'Vendrasi', 'Vendrasi sent a new price list this morning.'),
  term('name', 'Galbrecht', 'Galbrecht reviewed the security report.', 'gall brekt'),
  term('name', 'Orinthal', 'The Orinthal app crashed during the demo.'),
  term('sound-alike', 'Lumexa', 'Lumexa sells cameras in twelve countries.', 'loo mex uh'),
  term('name', 'Brennick', 'Brennick will present the results on Monday.'),
  term('two-word', 'Marvik Delacorte', 'Marvik Delacorte will lead the design review.'),
  term('sound-alike', 'Casteval', 'The Casteval warehouse ran out of boxes.'),
  term('name', 'Dunmarrow', 'Our team in Dunmarrow hired three engineers.'),
  term('name', 'Ferolin', 'Ferolin is the name of our new chat tool.'),
  term('name', 'Hestavo', 'The Hestavo printer needs new ink.', 'hess tah vo'),
  term('name', 'Jorvanta', 'Jorvanta signed the agreement on Tuesday.'),
  term('sound-alike', 'Mirelda', 'Mirelda booked the room for the workshop.'),
  term('sound-alike', 'Pendrova', 'Call Pendrova if the shipment is late.'),
  term('name', 'Rakovane', 'The Rakovane update will ship next month.'),
  term('sound-alike', 'Tolvessa', 'Tolvessa wants a faster database.', 'tol vess uh'),
  // Names.
  term('name', 'Wintrova', 'Wintrova will visit the factory on Thursday.'),
  term('name', 'Oskarel', 'The report from Oskarel arrived late again.'),
  term('name', 'Delvantis', 'Delvantis asked us to lower the price.'),
  term('name', 'Morguet', 'We bought the new chairs from Morguet.'),
  term('name', 'Haldrin', 'Haldrin is taking over the support team.'),
  term('name', 'Nivesca', 'The Nivesca office is closed for the holidays.'),
  term('name', 'Pradvik', 'Pradvik found the problem in the billing code.'),
  term('name', 'Celmora', 'Our lawyers met with Celmora this afternoon.'),
  term('name', 'Orlavi', 'Orlavi will answer the questions from the press.'),
  term('name', 'Fennimax', 'The Fennimax servers need more disk space.'),
  term('name', 'Kelvaro', 'Kelvaro moved to the sales team in June.'),
  term('name', 'Tamsivo', 'We signed a new deal with Tamsivo today.'),
  term('name', 'Brovanta', 'The trucks from Brovanta arrived this morning.'),
  term('name', 'Ezralin', 'Ezralin wrote most of the user guide.', 'ez ruh lin'),
  term('name', 'Gorvath', 'Gorvath will check the numbers again tonight.'),
  term('name', 'Lunderby', 'The plant in Lunderby makes the small parts.'),
  term('name', 'Maskelyn', 'Maskelyn called about the broken screen.', 'mask uh lin'),
  term('name', 'Nerovan', 'The Nerovan contract runs for two more years.'),
  term('name', 'Ostrida', 'Ostrida is the new head of marketing.'),
  term('name', 'Rasmodi', 'Please send the samples to Rasmodi by Friday.', 'raz mo dee'),
  term('name', 'Selvaggi', 'Selvaggi will cook for the team dinner.', 'sell vah jee'),
  term('name', 'Tervalon', 'The Tervalon team fixed the login page.'),
  term('name', 'Ubraxis', 'We store the backups at Ubraxis.', 'oo brax iss'),
  term('name', 'Valtessa', 'Valtessa asked for the meeting notes.'),
  term('name', 'Wendrick', 'Wendrick has the keys to the storage room.'),
  term('name', 'Yssolde', 'Yssolde will translate the manual into French.', 'ih sold uh'),
  term('name', 'Zarkovi', 'The parts from Zarkovi are still missing.'),
  term('name', 'Albrevan', 'Albrevan is our new partner in the north.'),
  term('name', 'Brixholm', 'The train to Brixholm was cancelled.'),
  term('name', 'Cadwarin', 'Cadwarin will sign the papers tomorrow.', 'cad war in'),
  term('name', 'Norvelle', 'Norvelle has a question about the invoice.'),
  term('name', 'Kimbrava', 'The Kimbrava store opens at nine.'),
  // Two-word names.
  term('two-word', 'Ilsa Varnholm', 'Ilsa Varnholm will chair the board meeting.'),
  term('two-word', 'Teodor Brunaxi', 'We hired Teodor Brunaxi as our new designer.'),
  term('two-word', 'Mira Ketlova', 'Mira Ketlova sent the final draft last night.'),
  term('two-word', 'Anselm Istrada', 'Please ask Anselm Istrada about the budget.'),
  term('two-word', 'Corin Pelgrum', 'Corin Pelgrum runs the office in London.'),
  term('two-word', 'Dasha Tavoski', 'The award went to Dasha Tavoski this year.'),
  term('two-word', 'Nils Ruvendal', 'Nils Ruvendal will give the opening talk.'),
  term('two-word', 'Petra Sabrelle', 'Petra Sabrelle booked the flights for the team.'),
  // Like everyday words: the everyday words they sound like are said in TERM_FREE.
  term('everyday', 'Sunmore', 'The Sunmore hotel gave us a good rate.'),
  term('everyday', 'Greenfold', 'Greenfold makes the boxes for our shop.'),
  term('everyday', 'Readyline', 'We ordered the desks from Readyline.'),
  term('everyday', 'Oakmere', 'The Oakmere school asked for a visit.'),
  term('everyday', 'Fairpoint', 'Fairpoint handles our payroll now.'),
  term('everyday', 'Silverbrook', 'The Silverbrook clinic opens on Monday.'),
  term('everyday', 'Lakemont', 'Our new warehouse is in Lakemont.'),
  term('everyday', 'Stillbrook', 'Stillbrook sent the wrong paint again.'),
  term('everyday', 'Goldmere', 'The Goldmere bank approved the loan.'),
  term('everyday', 'Highcourt', 'Highcourt will print the new menus.'),
  term('everyday', 'Clearpath', 'Clearpath wants to renew the contract.'),
  // Sound-alike: each has a sound-alike in SOUND_ALIKE_CONFUSERS, in the dictionary and never said.
  term('sound-alike', 'Velmora', 'The Velmora team won the contest.'),
  term('sound-alike', 'Doravel', 'Doravel will bring the cake on Friday.'),
  term('sound-alike', 'Miskovar', 'We met Miskovar at the trade fair.'),
  term('sound-alike', 'Trevandi', 'The Trevandi shipment is stuck at the port.'),
  term('sound-alike', 'Saltrika', 'Saltrika runs the night shift.'),
  term('sound-alike', 'Fenwarde', 'The Fenwarde building has a new roof.'),
  term('sound-alike', 'Quorvin', 'Quorvin will lead the training session.'),
  term('sound-alike', 'Peltrava', 'Our office in Peltrava needs a manager.'),
  term('sound-alike', 'Yaremko', 'Yaremko fixed the printer this morning.'),
  term('sound-alike', 'Olvestra', 'The Olvestra project starts in May.'),
  term('sound-alike', 'Zandrith', 'Zandrith is moving to the Paris office.'),
  // Products.
  term('product', 'Zentrova Cloud', 'We keep the photos in Zentrova Cloud.'),
  term('product', 'Marlix Pro', 'Marlix Pro costs less than the old tool.'),
  term('product', 'Tessaline Hub', 'The team chats in Tessaline Hub all day.'),
  term('product', 'Orvane Mail', 'The invite went out through Orvane Mail.'),
  term('product', 'Kestrix Drive', 'Save the contract in Kestrix Drive please.'),
  term('product', 'Palvora Sync', 'Palvora Sync copies the files every hour.'),
  term('product', 'Dravoni Pay', 'Customers can now pay with Dravoni Pay.'),
  term('product', 'Solvex Studio', 'She edits the videos in Solvex Studio.'),
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
  // The newer sound-alike terms' pairs: one sound apart.
  'Belmora',
  'Toravel',
  'Miskovan',
  'Drevandi',
  'Zaltrika',
  'Venwarde',
  'Quorvel',
  'Beltrava',
  'Yaremka',
  'Elvestra',
  'Sandrith',
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
  // The everyday words the everyday-sounding terms are made of.
  'Can we get some more paper for the printer?',
  'Fold the green paper in half before you cut it.',
  'The food is ready and the line is already long.',
  'There is an old oak tree next to the lake.',
  'That is a fair point and we should think about it.',
  'The silver car is parked by the little brook.',
  'We walked around the lake and up the hill.',
  'The water in the brook was still and clear.',
  'She wore a gold ring to the dinner.',
  'The case went all the way to the high court.',
  'Keep a clear path to the door at all times.',
  // More ordinary speech.
  'The lights in the hall stay on all night.',
  'We can finish the slides after the call.',
  'Please write your name at the top of the page.',
  'The flight was delayed by two hours because of the storm.',
  'I left my umbrella on the train this morning.',
  'Our neighbours are painting their house blue.',
  'The report is due at the end of the month.',
  'He runs five miles every morning before work.',
  'The shop closes early on Sundays.',
  'We ran out of milk so I went to the store.',
  'The new hire starts on Monday morning.',
  'Turn left at the bank and walk two blocks.',
  'The movie was long but the ending was good.',
  'Can you send me the address of the hotel?',
  'The printer needs paper and a new cartridge.',
  'My sister works at the hospital downtown.',
  'We should leave before the traffic gets bad.',
  'The dog barked at the mail carrier again.',
  'I will call you back after the meeting.',
  'They painted the office walls a light green.',
  'The heater in the car stopped working last week.',
  'Please turn off the lights when you leave.',
  'The garden looks lovely after the rain.',
  'We lost the game by one point in the last minute.',
  'The kids want pizza for dinner again.',
  'Our internet was down for most of the day.',
  'She found a cheap flight to the coast.',
  'The library is open late on Wednesdays.',
  'I need a new pair of shoes for the wedding.',
  'The boss liked the plan and wants to start soon.',
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

const termKey = (word: string) => normalize(word).join(' ');
/** How many times the (normalized) phrase occurs in the words. */
function occurrences(words: readonly string[], phrase: string): number {
  const parts = phrase.split(' ');
  let n = 0;
  for (let i = 0; i + parts.length <= words.length; i++) if (parts.every((p, k) => words[i + k] === p)) n++;
  return n;
}

const VOICES = ['festival', 'espeak en-us', 'espeak en-gb+m3'] as const;
type Voice = (typeof VOICES)[number];
const HALVES = ['tuning', 'held-out'] as const;
type Half = (typeof HALVES)[number];

function speak(voice: Voice, text: string): Promise<string> {
  return voice === 'festival' ? festivalWav(text) : espeakWav(text, voice.split(' ')[1]);
}

interface Clip {
  half: Half;
  voice: Voice;
  /** The spoken terms (empty for the term-free clips). */
  terms: SpokenTerm[];
  text: string;
  pcm: string;
}

/**
 * The i-th item of a list (of a category's terms, or of the term-free sentences) goes to a half by turns
 * and to a voice by pairs, so each half holds every category in every voice: half i % 2, voice ⌊i / 2⌋ % 3.
 */
const halfOf = (i: number): Half => HALVES[i % 2]!;
const voiceOf = (i: number): Voice => VOICES[Math.floor(i / 2) % VOICES.length]!;

async function clips(): Promise<Clip[]> {
  const placed = new Map<SpokenTerm, number>();
  const seen = new Map<Category, number>();
  for (const t of SPOKEN) {
    const i = seen.get(t.category) ?? 0;
    placed.set(t, i);
    seen.set(t.category, i + 1);
  }
  const out: Clip[] = [];
  for (const half of HALVES)
    for (const voice of VOICES) {
      const terms = SPOKEN.filter((t) => halfOf(placed.get(t)!) === half && voiceOf(placed.get(t)!) === voice);
      const free = TERM_FREE.filter((_, i) => halfOf(i) === half && voiceOf(i) === voice);
      for (const [sentences, spoken] of [
        [terms.map((t) => t.sentence), terms],
        [free, []],
      ] as const) {
        const wavs = await Promise.all(sentences.map((text) => speak(voice, text)));
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
  /** Of which the decodes without the vocabulary where the gate dropped a word (the engine's fallback). */
  fallbackMs: number;
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
    out.push({ clip, segments, engineMs, fallbackMs: result.timings?.['vocabulary fallback'] ?? 0 });
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
  /** Each spoken term, where it was said and whether it was found. */
  each: { term: SpokenTerm; voice: Voice; found: boolean }[];
  /** The dictionary terms put where none was said, and where another was said ("heard: term"). */
  insertedTerms: string[];
  wrongList: string[];
}

function score(
  items: readonly { clip: Clip; segments: TranscriptSegment[] }[],
  dictionary: readonly string[],
  verbose = Boolean(process.env.BENCH_VERBOSE),
): Scores {
  const keys = dictionary.map(termKey);
  const s: Scores = {
    found: 0,
    terms: 0,
    inserted: 0,
    freeWords: 0,
    wrongTerms: 0,
    freeErrors: 0,
    each: [],
    insertedTerms: [],
    wrongList: [],
  };
  for (const { clip, segments } of items) {
    const hyp = normalize(segments.map((seg) => seg.words.map((w) => w.word).join(' ')).join(' '));
    if (verbose) console.error(`  [${clip.half}/${clip.voice}] ${hyp.join(' ')}`);
    const spoken = new Set(clip.terms.map((t) => termKey(t.word)));
    if (clip.terms.length > 0) {
      s.terms += clip.terms.length;
      for (const t of clip.terms) {
        const found = occurrences(hyp, termKey(t.word)) > 0;
        if (found) s.found++;
        s.each.push({ term: t, voice: clip.voice, found });
      }
      for (const [k, key] of keys.entries())
        if (!spoken.has(key)) {
          const n = occurrences(hyp, key);
          s.wrongTerms += n;
          for (let i = 0; i < n; i++) s.wrongList.push(dictionary[k]!);
        }
    } else {
      const ref = normalize(clip.text);
      s.freeWords += ref.length;
      s.freeErrors += editDistance(ref, hyp);
      for (const [k, key] of keys.entries()) {
        const n = occurrences(hyp, key);
        s.inserted += n;
        for (let i = 0; i < n; i++) s.insertedTerms.push(dictionary[k]!);
      }
    }
  }
  return s;
}

/** Recall per group ("festival 12/17"), of the spoken terms a Scores saw. */
function recallBy(s: Scores, group: (e: Scores['each'][number]) => string[]): Map<string, string> {
  const counts = new Map<string, [number, number]>();
  for (const e of s.each)
    for (const g of group(e)) {
      const c = counts.get(g) ?? [0, 0];
      counts.set(g, [c[0] + (e.found ? 1 : 0), c[1] + 1]);
    }
  return new Map([...counts].map(([g, [found, total]]) => [g, `${pct(found / total)} (${found}/${total})`]));
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

/**
 * BENCH_REACH=1: how far a stage could reach. For each term the engine with the dictionary missed, the
 * highest threshold at which the stage, given that term alone and no single-word margin, writes it into
 * its clip (or "never" down to 0.50), next to what the whole dictionary inserts into the term-free clips
 * at that threshold. A missed term that only appears at thresholds that insert many words elsewhere is out
 * of any phonetic stage's reach: the engine did not hear anything like it.
 */
async function reach(items: readonly Recognized[], vocabulary: readonly VocabularyWord[]): Promise<void> {
  const words = vocabulary.map((v) => v.word);
  const thresholds = Array.from({ length: 18 }, (_, i) => Number((0.84 - 0.02 * i).toFixed(2)));
  const stages = thresholds.map((threshold) => new PhoneticVocabularyStage({ threshold, singleWordMargin: 0 }));
  const holds = (segments: readonly TranscriptSegment[], word: string) =>
    occurrences(normalize(segments.map((seg) => seg.text).join(' ')), termKey(word)) > 0;
  for (const h of HALVES) {
    const list = items.filter((r) => r.clip.half === h);
    const free = list.filter((r) => r.clip.terms.length === 0);
    const inserted = new Map<number, number>();
    for (const [k, stage] of stages.entries())
      inserted.set(thresholds[k]!, score((await applyStage(stage, free, vocabulary)).items, words, false).inserted);
    const found = new Map<string, number>();
    for (const item of list)
      for (const t of item.clip.terms) {
        if (holds(item.segments, t.word)) continue;
        const entry = t.reading ? { word: t.word, reading: t.reading } : { word: t.word };
        let at: number | null = null;
        for (const [k, stage] of stages.entries())
          if (holds((await stage.apply(item.segments, [entry], 'en')).segments, t.word)) {
            at = thresholds[k]!;
            break;
          }
        const label = at === null ? 'never' : at.toFixed(2);
        found.set(label, (found.get(label) ?? 0) + 1);
        console.error(`  [${h}] missed ${t.word} (${item.clip.voice}): reached at ${label}`);
      }
    const order = [...thresholds.map((t) => t.toFixed(2)), 'never'];
    console.log(
      `\n${h} half: the missed terms by the highest threshold that writes them, and what the dictionary inserts there`,
    );
    for (const label of order)
      if (found.has(label))
        console.log(
          `  ${label}: ${found.get(label)} missed term(s)${label === 'never' ? '' : `; ${inserted.get(Number(label))} insertion(s) in the term-free clips at this threshold`}`,
        );
  }
}

interface Candidate {
  item: number;
  word: number;
  half: Half;
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
  // A team's dictionary of 170 terms: the spoken ones, their sound-alikes never said, and invented fillers.
  const fillers = inventedWords(170 - SPOKEN.length - CONFUSERS.length, 28, new Set([...spokenKeys, ...confusers]));
  const team: VocabularyWord[] = [
    ...SPOKEN.map(({ word, reading }) => (reading ? { word, reading } : { word })),
    ...CONFUSERS.map((word) => ({ word })),
    ...fillers.map((word) => ({ word })),
  ];
  const large: VocabularyWord[] = [
    ...team,
    ...inventedWords(
      1000 - team.length,
      2028,
      new Set([...spokenKeys, ...confusers, ...fillers.map((w) => w.toLowerCase())]),
    ).map((word) => ({ word })),
  ];
  // For the time with 100 terms the issue asks for: the first 100 of the team's.
  const hundred = team.slice(0, 100);
  process.stderr.write('bench:vocabulary: generating speech (cached after the first run)...\n');
  // BENCH_HALF=tuning: only the tuning half and no 1,000-term run (for sweeps); BENCH_WORD_PROBABILITY and
  // BENCH_MIN_CONFIDENCE: the engine's vocabulary word probability and confidence gate instead of its defaults.
  const only = process.env.BENCH_HALF as Clip['half'] | undefined;
  const all = (await clips()).filter((c) => !only || c.half === only);
  // BENCH_DIAGNOSE=1: where the dictionary's cost on term-free speech comes from (vocabulary-diagnose.ts).
  if (process.env.BENCH_DIAGNOSE) return diagnose(all, team);
  const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const engine = new PocketsphinxEngine({
    vadLog: () => {},
    vocabularyWordProbability: numberFrom('BENCH_WORD_PROBABILITY'),
    vocabularyMinConfidence: numberFrom('BENCH_MIN_CONFIDENCE'),
    vocabularyShortWordPhones: numberFrom('BENCH_SHORT_WORD_PHONES'),
    ...(process.env.BENCH_FALLBACK ? { vocabularyFallback: process.env.BENCH_FALLBACK === '1' } : {}),
    vocabularyShortWordDecadesPerPhone: numberFrom('BENCH_SHORT_WORD_DECADES'),
  });
  // The first call loads the model: keep it out of the timings.
  await engine.recognize({ pcmPath: all[0]!.pcm, language: 'en', vocabulary: [], signal });

  // BENCH_DECODES=file: the decodes are kept in that file and read back on the next run, so the stage's
  // settings can be tried without recognizing again (no time is reported then).
  const saved = process.env.BENCH_DECODES;
  const reused = saved && fs.existsSync(saved);
  const runs = new Map<number, Recognized[]>();
  if (reused) {
    const stored = JSON.parse(fs.readFileSync(saved, 'utf8')) as [
      number,
      { text: string; voice: Voice; segments: TranscriptSegment[] }[],
    ][];
    for (const [size, list] of stored)
      runs.set(
        size,
        list.flatMap(({ text, voice, segments }) => {
          const clip = all.find((c) => c.text === text && c.voice === voice);
          return clip ? [{ clip, segments, engineMs: 0, fallbackMs: 0 }] : [];
        }),
      );
  } else
    for (const vocabulary of only ? [[], team] : [[], team, hundred, large]) {
      process.stderr.write(`bench:vocabulary: recognizing with ${vocabulary.length} terms...\n`);
      // The 100-term dictionary is only timed (on the held-out half).
      const list = vocabulary === hundred ? all.filter((c) => c.half === 'held-out') : all;
      runs.set(vocabulary.length, await recognizeAll(engine, list, vocabulary));
    }
  if (saved && !reused)
    fs.writeFileSync(
      saved,
      JSON.stringify(
        [...runs].map(([size, list]) => [
          size,
          list.map((r) => ({ text: r.clip.text, voice: r.clip.voice, segments: r.segments })),
        ]),
      ),
    );
  const half = (list: Recognized[], h: Clip['half']) => list.filter((r) => r.clip.half === h);
  const tuned = await calibrate(half(runs.get(team.length)!, 'tuning'), team);
  if (process.env.BENCH_VERBOSE) console.error(tuned.lines.join('\n'));
  // Both halves are reported with the product's threshold and margin (BENCH_THRESHOLD: another threshold).
  const threshold = process.env.BENCH_THRESHOLD ? Number(process.env.BENCH_THRESHOLD) : DEFAULT_VOCABULARY_THRESHOLD;
  const stage = new PhoneticVocabularyStage({ threshold, singleWordMargin: DEFAULT_SINGLE_WORD_MARGIN });

  if (process.env.BENCH_ACOUSTIC) await acousticExperiment(runs.get(team.length)!, team, stage);
  if (process.env.BENCH_REACH) await reach(runs.get(team.length)!, team);

  const rows: string[][] = [];
  const teamWords = team.map((v) => v.word);
  for (const h of only ? [only] : (['tuning', 'held-out'] as const)) {
    const none = half(runs.get(0)!, h);
    const withTeam = half(runs.get(team.length)!, h);
    const staged = (await applyStage(stage, withTeam, team)).items;
    const columns = [
      score(none, teamWords),
      score(withTeam, teamWords),
      score(staged, teamWords),
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
    // Where the terms are missed: by voice, by kind of term, and for the terms with a reading.
    const groups: [string, (e: Scores['each'][number]) => string[]][] = [
      ['voice', (e) => [e.voice]],
      ['kind', (e) => [e.term.category, ...(e.term.reading ? ['with a reading'] : [])]],
    ];
    for (const [name, group] of groups) {
      const by = columns.map((c) => recallBy(c, group));
      for (const g of by[0]!.keys()) rows.push([`  recall, ${name}: ${g}`, ...by.map((m) => m.get(g) ?? '')]);
    }
    if (process.env.BENCH_VERBOSE) {
      const after = columns[2]!;
      console.error(
        `[${h}] missed after the stage: ${after.each
          .filter((e) => !e.found)
          .map((e) => `${e.term.word} (${e.voice})`)
          .join(', ')}`,
      );
      console.error(`[${h}] inserted after the stage: ${after.insertedTerms.join(', ')}`);
      console.error(`[${h}] wrong terms after the stage: ${after.wrongList.join(', ')}`);
      console.error(`[${h}] the stage's rewrites (said: the term was said in that clip):`);
      for (const [i, item] of staged.entries())
        for (const w of item.segments.flatMap((seg) => seg.words))
          if (w.replaced?.source === 'vocabulary') {
            const heard = withTeam[i]!.segments.flatMap((seg) => seg.words).filter(
              (x) => x.start >= w.start && x.end <= w.end,
            );
            const said = item.clip.terms.some((t) => termKey(t.word) === termKey(w.word));
            console.error(
              `  ${said ? 'said' : 'NOT said'} ${w.word} <- ${heard.map((x) => `${x.word}(${x.confidence?.toFixed(2) ?? '-'})`).join(' ')} [${item.clip.voice}]`,
            );
          }
    }
  }
  // Time over the held-out half: each dictionary size recognized again, in the reverse order of the first
  // pass, and the faster of the two kept (other work on the machine only ever adds time).
  for (const vocabulary of only || saved ? [] : [large, team, hundred, []]) {
    const first = half(runs.get(vocabulary.length)!, 'held-out');
    const again = await recognizeAll(
      engine,
      first.map((r) => r.clip),
      vocabulary,
    );
    const engineMs = Math.min(...[first, again].map((list) => list.reduce((sum, r) => sum + r.engineMs, 0)));
    const fallbackMs = Math.min(...[first, again].map((list) => list.reduce((sum, r) => sum + r.fallbackMs, 0)));
    const stageMs = vocabulary.length === 0 ? 0 : (await applyStage(stage, first, vocabulary)).ms;
    rows.push([
      `recognition time, held-out half, ${vocabulary.length} terms`,
      '',
      `${(engineMs / 1000).toFixed(2)} s (fallback ${(fallbackMs / 1000).toFixed(2)} s)`,
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
    `${team.length} terms, engine alone (before)`,
    `${team.length} terms + vocabulary stage (after)`,
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
