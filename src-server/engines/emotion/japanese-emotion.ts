// Japanese emotion analysis: morphological analysis + a hand-written lexicon, no trained model.
//
// Approach:
// 1. kuromoji (IPADIC, dictionary shipped inside the npm package, loaded once from node_modules)
//    splits the text into morphemes with their base forms, so every conjugation of a word maps to
//    one lexicon key: 嬉しかった, 嬉しくて, 嬉しければ -> 嬉しい. Spaces between Japanese characters
//    (speech transcripts may space-separate words) are removed first.
// 2. Lexicon lookup (japanese-emotion-lexicon.ts), longest match first over up to 4 tokens, so
//    expressions such as 腹が立つ or 頭に来る win over their parts.
// 3. Negation: the tokens after a match are scanned while they can still belong to its predicate
//    (auxiliaries, particles other than conjunctive ones, ある/いる/なる/できる..., こと/わけ/の);
//    every ない/ぬ/ん/ず met there flips polarity, so 嬉しくない is negated and 嬉しくないわけではない
//    is not. The scope ends at a conjunctive particle (て, けど, から...), punctuation or content word.
//    A negated word uses its entry's `negated` evidence when it has one (許せない -> anger,
//    信じられない -> surprise); otherwise a negated joy word counts as weak sadness (全然嬉しくない is
//    displeasure, not joy) and a negated negative emotion counts as nothing (怖くない -> neutral).
// 4. Intensifiers (とても, すごく, 本当に, めっちゃ...) just before a match raise its weight by half
//    (and are not matches themselves, even when they are lexicon words such as すごい).
// 5. Scores: each emotion's evidence x 3 against a neutral baseline of 1 (+0.05 per token, so a
//    single emotional word weighs less in a long segment), plus a small floor, normalised to sum 1.
//    A text with no lexicon hit is neutral with probability ~0.9.
//
// Known limits: no sarcasm, no questions (怖いですか is fear), no sentence-level context; kana and
// kanji spellings must both be in the lexicon.
import { createRequire } from 'node:module';
import path from 'node:path';
import kuromoji, { type IpadicFeatures, type Tokenizer } from 'kuromoji';
import { EMOTION_LABELS, type EmotionScores } from '../../../src-shared/analysis.js';
import { neutralScores, zeroScores } from './emotion-scores.js';
import {
  type EmotionCategory,
  JAPANESE_EMOTION_LEXICON,
  type JapaneseLexiconEntry,
  MAX_KEY_TOKENS,
} from './japanese-emotion-lexicon.js';

const HIT_SCALE = 3;
const NEUTRAL_BASE = 1;
const NEUTRAL_PER_TOKEN = 0.05;
const FLOOR = 0.01;
const INTENSIFIER_FACTOR = 1.5;
/** Weight of the sadness a negated joy word stands for. */
const NEGATED_JOY_AS_SADNESS = 0.5;
/** Tokens after a match scanned for negation. */
const NEGATION_LOOKAHEAD = 6;

const INTENSIFIERS = new Set([
  'とても',
  'すごく',
  '凄く',
  'すっごく',
  '本当に',
  'ほんとうに',
  'ほんとに',
  '本当',
  'めっちゃ',
  'めちゃ',
  'めちゃくちゃ',
  'めちゃめちゃ',
  '超',
  'ちょう',
  '非常',
  '非常に',
  'かなり',
  '大変',
  'たいへん',
  '最も',
  '一番',
  'マジ',
  'まじ',
  'マジで',
  'まじで',
  'すごい',
  '凄い',
  'ものすごく',
  'もの凄く',
  '実に',
  'まったく',
  '全く',
  '心から',
]);

/** Verbs that carry a negation of the preceding predicate: 嬉しくありません, 楽しくなれない, 嬉しく思わない. */
const SCOPE_VERBS = new Set([
  'ある',
  'いる',
  'する',
  'なる',
  'なれる',
  'できる',
  'れる',
  'られる',
  'せる',
  'させる',
  '思う',
  '思える',
  '感じる',
  '感じられる',
  '言える',
  'いられる',
  'くる',
  'いく',
]);

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}ー々〆';
const SPACE_BETWEEN_CJK = new RegExp(`(?<=[${CJK}])\\s+(?=[${CJK}])`, 'gu');

export interface JapaneseEmotionHit {
  /** The lexicon key that matched. */
  key: string;
  /** Surface text of the matched tokens. */
  surface: string;
  negated: boolean;
  evidence: Partial<Record<EmotionCategory, number>>;
}

let tokenizerPromise: Promise<Tokenizer<IpadicFeatures>> | undefined;

/** The directory of kuromoji's bundled IPADIC dictionary. */
export function kuromojiDictionaryPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('kuromoji/package.json')), 'dict');
}

/** kuromoji with its bundled dictionary, built once (about a second) and shared. */
export function loadJapaneseTokenizer(): Promise<Tokenizer<IpadicFeatures>> {
  tokenizerPromise ??= new Promise<Tokenizer<IpadicFeatures>>((resolve, reject) => {
    kuromoji.builder({ dicPath: kuromojiDictionaryPath() }).build((err, tokenizer) => {
      if (err) reject(err);
      else resolve(tokenizer);
    });
  });
  // A failed load may be retried.
  tokenizerPromise.catch(() => {
    tokenizerPromise = undefined;
  });
  return tokenizerPromise;
}

function base(t: IpadicFeatures): string {
  return t.basic_form && t.basic_form !== '*' ? t.basic_form : t.surface_form;
}

function isNegator(t: IpadicFeatures): boolean {
  const b = base(t);
  if (t.pos === '助動詞') return b === 'ない' || b === 'ぬ' || b === 'ん' || b === 'ず';
  // 嬉しくはない, 楽しくもない: ない as an adjective after a particle.
  return t.pos === '形容詞' && b === 'ない';
}

/** Can this token still belong to the predicate of the matched word (so a negation after it counts)? */
function inPredicate(t: IpadicFeatures): boolean {
  switch (t.pos) {
    case '助動詞':
    case 'フィラー': // 悲しくなんかない
      return true;
    case '助詞':
      return t.pos_detail_1 !== '接続助詞';
    case '動詞':
      return t.pos_detail_1 === '非自立' || t.pos_detail_1 === '接尾' || SCOPE_VERBS.has(base(t));
    case '名詞':
      return t.pos_detail_1 === '非自立' || t.pos_detail_1 === '接尾';
    case '形容詞':
      return t.pos_detail_1 === '非自立';
    default:
      return false;
  }
}

function isWordToken(t: IpadicFeatures): boolean {
  return t.pos !== '記号';
}

export class JapaneseEmotionAnalyzer {
  constructor(private readonly tokenizer: Tokenizer<IpadicFeatures>) {}

  static async load(): Promise<JapaneseEmotionAnalyzer> {
    return new JapaneseEmotionAnalyzer(await loadJapaneseTokenizer());
  }

  tokenize(text: string): IpadicFeatures[] {
    return this.tokenizer
      .tokenize(text.normalize('NFKC').replace(SPACE_BETWEEN_CJK, ''))
      .filter((t) => t.surface_form.trim() !== '');
  }

  /** The lexicon matches in a text, with their negation and weighted evidence. */
  hits(text: string): JapaneseEmotionHit[] {
    return this.analyse(this.tokenize(text));
  }

  /** Probabilities over the seven labels; a text without words is neutral. */
  classify(text: string): EmotionScores {
    const tokens = this.tokenize(text);
    if (!tokens.some(isWordToken)) return neutralScores();
    const hits = this.analyse(tokens);
    const wordTokens = tokens.filter(isWordToken).length;
    const raw = zeroScores();
    for (const hit of hits) {
      for (const [category, weight] of Object.entries(hit.evidence) as Array<[EmotionCategory, number]>)
        raw[category] += weight * HIT_SCALE;
    }
    raw.neutral = NEUTRAL_BASE + NEUTRAL_PER_TOKEN * wordTokens;
    let sum = 0;
    for (const label of EMOTION_LABELS) sum += raw[label] += FLOOR;
    for (const label of EMOTION_LABELS) raw[label] /= sum;
    return raw;
  }

  private analyse(tokens: IpadicFeatures[]): JapaneseEmotionHit[] {
    const hits: JapaneseEmotionHit[] = [];
    let i = 0;
    while (i < tokens.length) {
      // すごく寂しい: an intensifier that is also a lexicon word (すごい) only intensifies what follows.
      const intensifier =
        INTENSIFIERS.has(tokens[i]!.surface_form) && (this.match(tokens, i + 1) ?? this.match(tokens, i + 2));
      const match = intensifier ? undefined : this.match(tokens, i);
      if (!match) {
        i++;
        continue;
      }
      const end = i + match.length;
      let negations = 0;
      for (let k = end; k < Math.min(tokens.length, end + NEGATION_LOOKAHEAD); k++) {
        const t = tokens[k]!;
        if (isNegator(t)) negations++;
        else if (!inPredicate(t)) break;
      }
      const negated = negations % 2 === 1;
      const intensified = [tokens[i - 1], tokens[i - 2]].some(
        (t) => t !== undefined && INTENSIFIERS.has(t.surface_form),
      );
      const evidence = this.evidence(match.entry, negated);
      if (intensified) for (const c of Object.keys(evidence) as EmotionCategory[]) evidence[c]! *= INTENSIFIER_FACTOR;
      hits.push({
        key: match.key,
        surface: tokens
          .slice(i, end)
          .map((t) => t.surface_form)
          .join(''),
        negated,
        evidence,
      });
      i = end;
    }
    return hits;
  }

  /** Longest lexicon key starting at token i: surfaces of the leading tokens + base form of the last. */
  private match(
    tokens: IpadicFeatures[],
    i: number,
  ): { key: string; length: number; entry: JapaneseLexiconEntry } | undefined {
    for (let n = Math.min(MAX_KEY_TOKENS, tokens.length - i); n >= 1; n--) {
      const lead = tokens
        .slice(i, i + n - 1)
        .map((t) => t.surface_form)
        .join('');
      const last = tokens[i + n - 1]!;
      for (const key of new Set([lead + base(last), lead + last.surface_form])) {
        const entry = JAPANESE_EMOTION_LEXICON.get(key);
        if (entry) return { key, length: n, entry };
      }
    }
    return undefined;
  }

  private evidence(entry: JapaneseLexiconEntry, negated: boolean): Partial<Record<EmotionCategory, number>> {
    if (!negated) return { ...entry.plain };
    if (entry.negated) return { ...entry.negated };
    const joy = entry.plain.joy ?? 0;
    return joy > 0 ? { sadness: joy * NEGATED_JOY_AS_SADNESS } : {};
  }
}

let analyzerPromise: Promise<JapaneseEmotionAnalyzer> | undefined;

/** The shared analyser (kuromoji loaded on first use). */
export function getJapaneseEmotionAnalyzer(): Promise<JapaneseEmotionAnalyzer> {
  analyzerPromise ??= JapaneseEmotionAnalyzer.load();
  analyzerPromise.catch(() => {
    analyzerPromise = undefined;
  });
  return analyzerPromise;
}
