// What changed between two versions of a segment's text, word by word: History shows a revision's changes
// with it, and the conflict view both sides of a segment. Words are aligned by the same longest common
// subsequence that keeps word timing through an edit (word-timing.ts), but compared exactly, so a changed
// capital or comma counts as a change. Languages written without spaces are split into the words
// Intl.Segmenter finds there (else a Japanese segment would be one "word").
import { alignWords, tokenize } from './word-timing.js';
import { isSpaceless, wordSeparator } from './word-text.js';

/** A run of words that changed, or did not, between the two texts. */
export interface DiffRun {
  text: string;
  changed: boolean;
}

export interface WordDiff {
  /** The earlier text in runs; `changed` marks words the later text does not have. */
  before: DiffRun[];
  /** The later text in runs; `changed` marks words the earlier text did not have. */
  after: DiffRun[];
  /** What goes between two runs ("" for languages written without spaces). */
  separator: string;
}

/** The text's words: kept whole with the spaces between them where the language has none between words. */
export function diffTokens(text: string, language: string): string[] {
  if (!isSpaceless(language)) return tokenize(text);
  const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

const exact = (word: string) => word;

export function diffWords(before: string, after: string, language: string): WordDiff {
  const separator = wordSeparator(language);
  const a = diffTokens(before, language);
  const b = diffTokens(after, language);
  const kept = alignWords(a, b, exact);
  const keptBefore = new Set(kept.map(([i]) => i));
  const keptAfter = new Set(kept.map(([, j]) => j));
  return {
    before: runs(a, (i) => !keptBefore.has(i), separator),
    after: runs(b, (j) => !keptAfter.has(j), separator),
    separator,
  };
}

function runs(tokens: string[], changed: (index: number) => boolean, separator: string): DiffRun[] {
  const out: DiffRun[] = [];
  tokens.forEach((token, index) => {
    const isChanged = changed(index);
    const last = out.at(-1);
    if (last && last.changed === isChanged) last.text += separator + token;
    else out.push({ text: token, changed: isChanged });
  });
  return out;
}

/** How many words an edit changed: the more of the words it took out and the words it put in ("Edited 3 words"). */
export function changedWordCount(before: string, after: string, language: string): number {
  const a = diffTokens(before, language).filter((w) => w.trim() !== '');
  const b = diffTokens(after, language).filter((w) => w.trim() !== '');
  const kept = alignWords(a, b, exact).length;
  return Math.max(a.length - kept, b.length - kept);
}
