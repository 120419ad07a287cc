// The phonetic vocabulary matcher (decision 0058): finds runs of 1..maxSpan recognized words whose
// phones are close to a dictionary term's, and says which term each run should become. Pure: phones
// come in as ARPAbet arrays (phonetic-vocabulary-stage.ts derives them), so tests can give fixed ones.
//
// Closeness is a weighted edit distance over phones: sounds a recognizer confuses (a vowel for a vowel,
// voiced for voiceless, one nasal for another) cost less than unrelated ones, and weak sounds (schwa,
// h) cost less to drop, so "to remain ovosky" stays close to "Tremaine Ovosky" while "the real" is far
// from "Zephyrion". The cost is divided by the longer phone string, so long and short terms share one
// threshold. Low word confidence lowers the bar a little: the engine itself doubted those words.

export interface PhoneticTerm {
  /** What the span is rewritten to: the dictionary word as the user wrote it. */
  text: string;
  /** The term's own words, normalized (matchToken): a run may keep them. */
  words: readonly string[];
  phones: readonly string[];
}

export interface HeardWord {
  word: string;
  confidence: number | null;
  /** Null when no pronunciation is known (the word then never joins a run). */
  phones: readonly string[] | null;
}

export interface MatchOptions {
  /** A run is rewritten when its score reaches this (calibrated by bench:vocabulary). */
  threshold: number;
  /** Longest run of recognized words one term may replace. */
  maxSpan: number;
  /**
   * Added to the threshold for a run of one word: the engine wrote a whole word there ("tomorrow"), while
   * a name it does not know usually comes out as several short ones ("kravitz he").
   */
  singleWordMargin?: number;
  /** Normalized words a run may not consist of alone (very common short words). */
  commonWords: ReadonlySet<string>;
}

export interface TermMatch {
  /** First word of the run, and one past its last. */
  start: number;
  end: number;
  term: PhoneticTerm;
  score: number;
}

const VOWELS = new Set('AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW'.split(' '));
/** Pairs a recognizer (or a voice) swaps easily, with their substitution cost (others: vowel-vowel 0.5, else 1). */
const NEAR: ReadonlyArray<[string, string, number]> = [
  // reduced and neighbouring vowels
  ['AH', 'IH', 0.2],
  ['AH', 'EH', 0.3],
  ['AH', 'AA', 0.3],
  ['AH', 'UH', 0.3],
  ['AH', 'ER', 0.35],
  ['IH', 'IY', 0.25],
  ['IH', 'EH', 0.3],
  ['EH', 'AE', 0.3],
  ['EH', 'EY', 0.3],
  ['AA', 'AO', 0.25],
  ['AO', 'OW', 0.3],
  ['UH', 'UW', 0.25],
  ['AA', 'AE', 0.35],
  ['OW', 'UW', 0.35],
  ['AY', 'AA', 0.4],
  ['AW', 'AA', 0.4],
  // voicing pairs
  ['P', 'B', 0.4],
  ['T', 'D', 0.35],
  ['K', 'G', 0.4],
  ['F', 'V', 0.4],
  ['S', 'Z', 0.3],
  ['SH', 'ZH', 0.35],
  ['CH', 'JH', 0.35],
  ['TH', 'DH', 0.3],
  // place and manner neighbours
  ['M', 'N', 0.4],
  ['N', 'NG', 0.35],
  ['L', 'R', 0.5],
  ['R', 'ER', 0.4],
  ['W', 'UW', 0.5],
  ['Y', 'IY', 0.5],
  ['TH', 'F', 0.5],
  ['DH', 'D', 0.5],
  ['DH', 'V', 0.5],
  ['S', 'SH', 0.5],
  ['Z', 'ZH', 0.5],
  ['CH', 'SH', 0.5],
  ['JH', 'ZH', 0.5],
  ['T', 'CH', 0.6],
  ['D', 'JH', 0.6],
  ['K', 'T', 0.7],
  ['P', 'T', 0.7],
  ['B', 'D', 0.7],
  ['D', 'G', 0.7],
];
const NEAR_COST = new Map<string, number>();
for (const [a, b, cost] of NEAR) {
  NEAR_COST.set(`${a} ${b}`, cost);
  NEAR_COST.set(`${b} ${a}`, cost);
}

export function substitutionCost(a: string, b: string): number {
  if (a === b) return 0;
  return NEAR_COST.get(`${a} ${b}`) ?? (VOWELS.has(a) && VOWELS.has(b) ? 0.5 : 1);
}

/** Dropping or adding a phone: weak sounds cheaply, vowels less than consonants. */
export function gapCost(phone: string): number {
  if (phone === 'AH' || phone === 'IH' || phone === 'HH') return 0.4;
  return VOWELS.has(phone) ? 0.6 : 0.8;
}

// The costs as tables over phone numbers: a 1,000-term dictionary compares hundreds of thousands of
// (run, term) pairs per transcript, and string keys there cost more than the distances themselves.
const PHONES = [
  ...'AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH'.split(' '),
  '?', // anything else: unlike every phone, itself included
];
const PHONE_ID = new Map(PHONES.map((p, i) => [p, i]));
const OTHER = PHONES.length - 1;
const SUB = new Float64Array(PHONES.length * PHONES.length);
const GAP = new Float64Array(PHONES.length);
for (const [i, a] of PHONES.entries()) {
  GAP[i] = gapCost(a);
  for (const [j, b] of PHONES.entries()) SUB[i * PHONES.length + j] = i === OTHER ? 1 : substitutionCost(a, b);
}

/** Phones as numbers for the tables. */
export function phoneIds(phones: readonly string[]): Uint8Array {
  return Uint8Array.from(phones, (p) => PHONE_ID.get(p) ?? OTHER);
}

let rowA = new Float64Array(64);
let rowB = new Float64Array(64);

function distanceIds(a: ArrayLike<number>, aLength: number, b: Uint8Array): number {
  if (rowA.length <= b.length) {
    rowA = new Float64Array(b.length * 2 + 1);
    rowB = new Float64Array(b.length * 2 + 1);
  }
  let previous = rowA;
  let current = rowB;
  const n = PHONES.length;
  previous[0] = 0;
  for (let j = 1; j <= b.length; j++) previous[j] = previous[j - 1]! + GAP[b[j - 1]!]!;
  for (let i = 1; i <= aLength; i++) {
    const ai = a[i - 1]!;
    const gapA = GAP[ai]!;
    const subRow = ai * n;
    current[0] = previous[0]! + gapA;
    for (let j = 1; j <= b.length; j++) {
      const bj = b[j - 1]!;
      const substitute = previous[j - 1]! + SUB[subRow + bj]!;
      const drop = previous[j]! + gapA;
      const add = current[j - 1]! + GAP[bj]!;
      current[j] = substitute < drop ? (substitute < add ? substitute : add) : drop < add ? drop : add;
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** Weighted edit distance between two phone strings. */
export function phoneDistance(a: readonly string[], b: readonly string[]): number {
  const ids = phoneIds(a);
  return distanceIds(ids, ids.length, phoneIds(b));
}

/** 1 for the same phones, falling towards 0 (and below) as they differ; divided by the longer string. */
export function phoneSimilarity(a: readonly string[], b: readonly string[]): number {
  const longer = Math.max(a.length, b.length);
  return longer === 0 ? 0 : 1 - phoneDistance(a, b) / longer;
}

/** How much a run's doubt (1 - its mean confidence) adds to its score. */
export const CONFIDENCE_WEIGHT = 0.1;
/** Terms shorter than this (in phones) are too easy to find anywhere: left to the engine alone. */
export const MIN_TERM_PHONES = 4;
/**
 * A run must be about as long as the term (shorter / longer, in phones): a word that sounds like the end
 * of a name ("tricks" for "Zintrix") is a word of its own, not the name with its start lost.
 */
export const MIN_LENGTH_RATIO = 0.7;

/** A word as the matcher compares it: NFKC, lower case, without surrounding punctuation. */
export function matchToken(word: string): string {
  return word
    .normalize('NFKC')
    .toLocaleLowerCase('und')
    .trim()
    .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
}

/**
 * The runs to rewrite, in order, none overlapping: every (run, term) pair scoring at least the
 * threshold, best first, each kept unless it overlaps one already kept. So of two similar terms the
 * closer wins, and a name split in two is taken whole when the whole scores better than a part.
 */
export function findTermMatches(
  words: readonly HeardWord[],
  terms: readonly PhoneticTerm[],
  options: MatchOptions,
): TermMatch[] {
  const usable = terms.filter((t) => t.phones.length >= MIN_TERM_PHONES);
  if (usable.length === 0 || words.length === 0) return [];
  const termIds = usable.map((t) => phoneIds(t.phones));
  const termTexts = usable.map((t) => t.words.join(' '));
  // A word that already is (part of) a dictionary term is left as it is.
  const dictionaryWords = new Set(usable.flatMap((t) => t.words));
  const tokens = words.map((w) => matchToken(w.word));
  const wordIds = words.map((w) => (w.phones && w.phones.length > 0 ? phoneIds(w.phones) : null));
  const candidates: TermMatch[] = [];
  const span = new Uint8Array(64 * options.maxSpan);
  for (let start = 0; start < words.length; start++) {
    let length = 0;
    let confidenceSum = 0;
    let allCommon = true;
    const spanTokens: string[] = [];
    for (let end = start + 1; end <= Math.min(words.length, start + options.maxSpan); end++) {
      const ids = wordIds[end - 1];
      if (!ids || length + ids.length > span.length) break;
      span.set(ids, length);
      length += ids.length;
      confidenceSum += words[end - 1]!.confidence ?? 0.5;
      const token = tokens[end - 1]!;
      spanTokens.push(token);
      if (!options.commonWords.has(token)) allCommon = false;
      if (allCommon) continue;
      const doubt = 1 - confidenceSum / (end - start);
      const heard = spanTokens.join(' ');
      const known = spanTokens.filter((t) => dictionaryWords.has(t));
      for (const [k, term] of usable.entries()) {
        const target = termIds[k]!;
        const longer = Math.max(length, target.length);
        if (Math.min(length, target.length) < MIN_LENGTH_RATIO * longer) continue;
        if (heard === termTexts[k]) continue;
        if (known.length > 0) {
          // Only a multi-word name heard half right may keep one of its own words in the run.
          if (known.some((t) => term.words.length === 1 || !term.words.includes(t))) continue;
          if (term.words.every((w) => spanTokens.includes(w))) continue;
        }
        const score = 1 - distanceIds(span, length, target) / longer + CONFIDENCE_WEIGHT * doubt;
        if (score >= options.threshold + (end - start === 1 ? (options.singleWordMargin ?? 0) : 0))
          candidates.push({ start, end, term, score });
      }
    }
  }
  // Best first; on a tie the shorter run (fewer words swallowed), then the earlier one.
  candidates.sort((a, b) => b.score - a.score || a.end - a.start - (b.end - b.start) || a.start - b.start);
  const taken = new Array<boolean>(words.length).fill(false);
  const kept: TermMatch[] = [];
  for (const c of candidates) {
    let free = true;
    for (let i = c.start; i < c.end && free; i++) if (taken[i]) free = false;
    if (!free) continue;
    for (let i = c.start; i < c.end; i++) taken[i] = true;
    kept.push(c);
  }
  return kept.sort((a, b) => a.start - b.start);
}
