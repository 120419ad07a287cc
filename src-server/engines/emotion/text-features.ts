// English text features for the emotion classifier, shared by training (bench/train-emotion.ts)
// and inference (goemotions-classifier.ts) so both see exactly the same features.
//
// Pipeline: normalise (lowercase, curly apostrophes, "n't"/"cannot"/"dont" expanded to "not",
// letter runs capped at 2) -> tokens (words, "!", "?", emoji; other punctuation kept only as a
// boundary) -> negation scope marking -> unigrams + bigrams + pooled lexicon categories
// (english-emotion-lexicon.ts) -> sublinear TF, L2-normalised.
//
// Negation: after a negator (not, no, never, nothing, without, ...) the next `negationWindow`
// tokens become distinct features ("not happy" -> "not", "NOT_happy"), so "happy" does not fire.
// The scope ends early at punctuation or a clause word (but, because, although, ...). Speech
// transcripts are lowercase and unpunctuated, so the window, not punctuation, is what bounds the
// scope there.
import { ENGLISH_EMOTION_LEXICON } from './english-emotion-lexicon.js';

export interface FeatureConfig {
  /** Tokens after a negator that are marked NOT_ (0 disables negation marking). */
  negationWindow: number;
  /** Add word bigrams (over the marked tokens, across removed punctuation). */
  bigrams: boolean;
  /** Add pooled lexicon-category features (LEX_joy, LEX_NOT_joy; english-emotion-lexicon.ts). */
  lexicon: boolean;
}

export const DEFAULT_FEATURE_CONFIG: FeatureConfig = { negationWindow: 3, bigrams: true, lexicon: true };

export const NEGATION_PREFIX = 'NOT_';
export const LEXICON_PREFIX = 'LEX_';

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'nobody',
  'none',
  'neither',
  'nor',
  'nowhere',
  'without',
  'hardly',
  'barely',
  'scarcely',
  'noone',
]);

/** Words that open a new clause: a negation scope does not cross them. ("so" is not one: "not so happy".) */
const CLAUSE_BOUNDARIES = new Set([
  'but',
  'however',
  'although',
  'though',
  'yet',
  'because',
  'cause',
  'cuz',
  'except',
  'whereas',
  'while',
  'unless',
  'and',
  'instead',
]);

/** Punctuation that ends a negation scope; "!" and "?" are also features. */
const BOUNDARY_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?']);
const FEATURE_PUNCTUATION = new Set(['!', '?']);

/** Apostrophe-less Reddit/ASR spellings of negative contractions. */
const BARE_NEGATIVE_CONTRACTIONS: Record<string, string> = {
  dont: 'do not',
  doesnt: 'does not',
  didnt: 'did not',
  isnt: 'is not',
  wasnt: 'was not',
  arent: 'are not',
  werent: 'were not',
  cant: 'can not',
  couldnt: 'could not',
  wouldnt: 'would not',
  shouldnt: 'should not',
  havent: 'have not',
  hasnt: 'has not',
  hadnt: 'had not',
  aint: 'is not',
  wont: 'will not',
  mustnt: 'must not',
  neednt: 'need not',
  cannot: 'can not',
};

const TOKEN_RE = /[a-z0-9]+(?:'[a-z]+)*|[!?.,;:]|\p{Extended_Pictographic}/gu;

/** Lowercased tokens, negative contractions expanded ("didn't" -> "did", "not"). */
export function tokenize(text: string): string[] {
  const normalised = text
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/\bwon't\b/g, 'will not')
    .replace(/\bcan't\b/g, 'can not')
    .replace(/\bshan't\b/g, 'shall not')
    .replace(/\bain't\b/g, 'is not')
    .replace(/n't\b/g, ' not')
    // "soooo" -> "soo", "!!!!" -> "!!": keeps elongation visible without exploding the vocabulary.
    .replace(/(.)\1{2,}/gu, '$1$1');
  const out: string[] = [];
  for (const match of normalised.matchAll(TOKEN_RE)) {
    let token = match[0];
    const expanded = BARE_NEGATIVE_CONTRACTIONS[token];
    if (expanded !== undefined) {
      out.push(...expanded.split(' '));
      continue;
    }
    // Other contractions merge with their apostrophe-less spelling: "i'm" = "im", "it's" = "its".
    if (token.includes("'")) token = token.replace(/'/g, '');
    out.push(token);
  }
  return out;
}

/**
 * Marks the tokens in a negation scope with NOT_. Negators themselves stay plain; a negator inside
 * a scope starts a fresh scope. Punctuation is kept (callers drop it when building features).
 */
export function markNegation(tokens: readonly string[], window: number): string[] {
  const out: string[] = [];
  let remaining = 0;
  for (const token of tokens) {
    if (NEGATORS.has(token)) {
      out.push(token);
      remaining = window;
    } else if (BOUNDARY_PUNCTUATION.has(token) || CLAUSE_BOUNDARIES.has(token)) {
      out.push(token);
      remaining = 0;
    } else if (remaining > 0) {
      out.push(NEGATION_PREFIX + token);
      remaining--;
    } else {
      out.push(token);
    }
  }
  return out;
}

/** The feature strings of a text, with their raw counts. */
export function featureCounts(text: string, config: FeatureConfig = DEFAULT_FEATURE_CONFIG): Map<string, number> {
  const marked = markNegation(tokenize(text), config.negationWindow);
  const terms = marked.filter((t) => !BOUNDARY_PUNCTUATION.has(t) || FEATURE_PUNCTUATION.has(t));
  const counts = new Map<string, number>();
  const add = (f: string): void => {
    counts.set(f, (counts.get(f) ?? 0) + 1);
  };
  for (let i = 0; i < terms.length; i++) {
    add(terms[i]!);
    if (config.bigrams && i + 1 < terms.length) add(`${terms[i]} ${terms[i + 1]}`);
  }
  if (config.lexicon) {
    for (const term of terms) {
      const negated = term.startsWith(NEGATION_PREFIX);
      const categories = ENGLISH_EMOTION_LEXICON.get(negated ? term.slice(NEGATION_PREFIX.length) : term);
      for (const c of categories ?? []) add(`${LEXICON_PREFIX}${negated ? NEGATION_PREFIX : ''}${c}`);
    }
  }
  return counts;
}

/**
 * Sparse feature vector over a vocabulary: sublinear TF (1 + ln count), L2-normalised, so long
 * and short texts get logits of comparable scale. Unknown features are dropped.
 */
export function vectorize(
  text: string,
  vocabulary: ReadonlyMap<string, number>,
  config: FeatureConfig = DEFAULT_FEATURE_CONFIG,
): { indices: Int32Array; values: Float32Array } {
  const pairs: Array<[number, number]> = [];
  for (const [feature, count] of featureCounts(text, config)) {
    const index = vocabulary.get(feature);
    if (index !== undefined) pairs.push([index, 1 + Math.log(count)]);
  }
  pairs.sort((a, b) => a[0] - b[0]);
  let norm = 0;
  for (const [, v] of pairs) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  const indices = new Int32Array(pairs.length);
  const values = new Float32Array(pairs.length);
  pairs.forEach(([i, v], k) => {
    indices[k] = i;
    values[k] = v / norm;
  });
  return { indices, values };
}
