// The vocabulary stage every engine's words go through (decision 0058): dictionary terms found by how
// they sound, not how the engine spelled them. Phones come from the CMU dictionary (words pocketsphinx
// can output) and espeak-ng (anything else: invented names, readings, Japanese kana), one espeak-ng run
// per dictionary and one per transcript's unknown words, cached. The matching is phonetic-matcher.ts.
import type { TranscriptSegment, TranscriptWord } from '../../../src-shared/transcript-document.js';
import { joinWords } from '../../../src-shared/word-text.js';
import type { VocabularyStage, VocabularyTerm } from '../../domain/transcription-pipeline.js';
import { espeakPronunciations, loadCmuDict, type PronunciationOptions } from '../speech/pronunciation.js';
import { findTermMatches, matchToken, type HeardWord, type PhoneticTerm } from './phonetic-matcher.js';

/** Calibrated on bench:vocabulary's tuning half (decisions 0058 and 0104 have the tables). */
export const DEFAULT_VOCABULARY_THRESHOLD = 0.85;
export const DEFAULT_SINGLE_WORD_MARGIN = 0.08;

/** Words too common and short to ever be a misheard term by themselves (a run needs one other word). */
const COMMON_WORDS: Record<'en' | 'ja', ReadonlySet<string>> = {
  en: new Set(
    (
      'a an the and or but if of to in on at by for from with as is are was were be been am it its this that ' +
      'these those there here he she we they you i me my our your his her their them us him do does did not no ' +
      'so up out off all any can will would could should may might must have has had what who how when where ' +
      'why which than then too very just about into over after before again also only own same some such more ' +
      'most other new one two three four five six seven eight nine ten yes oh ok okay well now get got go went ' +
      'say said see saw make made take took come came know think want like time day week year way'
    ).split(' '),
  ),
  // Particles and the commonest endings: a run of these alone is never a name.
  ja: new Set('は が を に の で と も か へ や な ね よ です ます た だ て し'.split(' ')),
};

interface LanguageRules {
  voice: string;
  common: ReadonlySet<string>;
  maxSpan: number;
  /** Whether the CMU dictionary knows the language's words. */
  cmu: boolean;
  normalizeIpa?: (ipa: string) => string;
}

/** espeak-ng's Japanese IPA, brought to the symbols the ARPAbet mapping knows. */
const japaneseIpa = (ipa: string) =>
  ipa
    .normalize('NFD')
    .replace(/[\u031e\u031d\u0308\u0325\u0339\u031c]/g, '') // lowered, raised, centralized, devoiced, rounding marks
    .replace(/ɕ/g, 'ʃ')
    .replace(/ʑ/g, 'ʒ')
    .replace(/ɽ/g, 'ɹ')
    .replace(/ɯ/g, 'u')
    .replace(/ɸ/g, 'f')
    .replace(/ɴ/g, 'n');

function rulesFor(language: string): LanguageRules | null {
  const base = language.toLowerCase().split(/[-_]/)[0];
  if (base === 'en') return { voice: 'en-us', common: COMMON_WORDS.en, maxSpan: 3, cmu: true };
  // Japanese tokens are short (often a character or two): a term may span more of them.
  if (base === 'ja') return { voice: 'ja', common: COMMON_WORDS.ja, maxSpan: 6, cmu: false, normalizeIpa: japaneseIpa };
  return null;
}

export interface PhoneticVocabularyOptions extends PronunciationOptions {
  threshold?: number;
  singleWordMargin?: number;
}

export class PhoneticVocabularyStage implements VocabularyStage {
  private readonly threshold: number;
  private readonly singleWordMargin: number;

  constructor(private readonly options: PhoneticVocabularyOptions = {}) {
    this.threshold = options.threshold ?? DEFAULT_VOCABULARY_THRESHOLD;
    this.singleWordMargin = options.singleWordMargin ?? DEFAULT_SINGLE_WORD_MARGIN;
  }

  async apply(
    segments: TranscriptSegment[],
    vocabulary: readonly VocabularyTerm[],
    language: string,
  ): Promise<{ segments: TranscriptSegment[]; rewritten: number }> {
    const rules = rulesFor(language);
    if (!rules || vocabulary.length === 0) return { segments, rewritten: 0 };
    const terms = await this.terms(vocabulary, rules);
    const heardTokens = [...new Set(segments.flatMap((s) => s.words.map((w) => matchToken(w.word))))].filter(Boolean);
    const heardPhones = await this.phonesOf(heardTokens, rules);
    let rewritten = 0;
    const out = segments.map((segment) => {
      const heard: HeardWord[] = segment.words.map((w) => ({
        word: w.word,
        confidence: w.confidence,
        // A word a forced replacement already wrote is the user's, not the engine's: never matched.
        phones: w.replaced ? null : (heardPhones.get(matchToken(w.word)) ?? null),
      }));
      const matches = findTermMatches(heard, terms, {
        threshold: this.threshold,
        singleWordMargin: this.singleWordMargin,
        maxSpan: rules.maxSpan,
        commonWords: rules.common,
      });
      if (matches.length === 0) return segment;
      rewritten += matches.length;
      const words: TranscriptWord[] = [];
      let at = 0;
      for (const match of matches) {
        words.push(...segment.words.slice(at, match.start));
        words.push(rewrite(segment.words.slice(match.start, match.end), match.term.text, language));
        at = match.end;
      }
      words.push(...segment.words.slice(at));
      return { ...segment, words, text: joinWords(words, language) };
    });
    return { segments: out, rewritten };
  }

  /**
   * Each term's phones: from its reading when it has one, else from its spelling. Terms made only of
   * words the CMU dictionary knows are left out: the engine can already write them, and rewriting to
   * them would turn ordinary words into neighbours ("plans" into "plan" for an OpenAI prompt's words).
   */
  private async terms(vocabulary: readonly VocabularyTerm[], rules: LanguageRules): Promise<PhoneticTerm[]> {
    const cmu = rules.cmu ? await loadCmuDict(this.options.cmudictPath).catch(() => null) : null;
    if (cmu) vocabulary = vocabulary.filter((v) => !v.word.split(/\s+/).every((w) => cmu.has(matchToken(w))));
    const sources = vocabulary.map((v) => (v.reading?.trim() ? v.reading : v.word));
    const tokens = [...new Set(sources.flatMap((s) => s.split(/\s+/).map(matchToken)))].filter(Boolean);
    const phones = await this.phonesOf(tokens, rules);
    const terms: PhoneticTerm[] = [];
    for (const [i, entry] of vocabulary.entries()) {
      const parts = sources[i]!.split(/\s+/).map(matchToken).filter(Boolean);
      const termPhones = parts.flatMap((p) => phones.get(p) ?? []);
      // A term with a word nothing could pronounce is left out rather than matched on part of it.
      if (parts.some((p) => !phones.get(p))) continue;
      const words = entry.word.split(/\s+/).map(matchToken).filter(Boolean);
      if (words.length > 0) terms.push({ text: entry.word.trim(), words, phones: termPhones });
    }
    return terms;
  }

  /** Phones per normalized token: the CMU dictionary first (English), espeak-ng for the rest, in one run. */
  private async phonesOf(tokens: readonly string[], rules: LanguageRules): Promise<Map<string, string[] | null>> {
    const out = new Map<string, string[] | null>();
    const cmu = rules.cmu ? await loadCmuDict(this.options.cmudictPath).catch(() => null) : null;
    const rest: string[] = [];
    for (const token of tokens) {
      const entry = cmu?.get(token)?.[0];
      if (entry) out.set(token, entry.split(' '));
      else rest.push(token);
    }
    if (rest.length > 0) {
      const spoken = await espeakPronunciations(rest, {
        ...this.options,
        voice: rules.voice,
        ...(rules.normalizeIpa ? { normalizeIpa: rules.normalizeIpa } : {}),
      });
      for (const token of rest) out.set(token, spoken.get(token) ?? null);
    }
    return out;
  }
}

/**
 * The run becomes one word carrying the term, timed over the run, marked with what was heard (like a
 * forced replacement). Punctuation the engine put before the first word or after the last stays.
 */
function rewrite(run: readonly TranscriptWord[], term: string, language: string): TranscriptWord {
  const lead = /^[\p{P}\p{S}]+/u.exec(run[0]!.word)?.[0] ?? '';
  const trail = /[\p{P}\p{S}]+$/u.exec(run.at(-1)!.word)?.[0] ?? '';
  let confidence: number | null = null;
  for (const w of run)
    if (w.confidence !== null) confidence = confidence === null ? w.confidence : Math.min(confidence, w.confidence);
  return {
    word: `${lead}${term}${trail}`,
    start: run[0]!.start,
    end: run.at(-1)!.end,
    confidence,
    replaced: { pattern: term, original: joinWords(run, language), source: 'vocabulary' },
  };
}
