// The sentence units the extractive summary ranks and quotes, what each language's rules provide, and
// the helpers the rules share (markup removal, timing a span of a segment).
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';

/** A date or time expression in a unit. */
export interface DateMention {
  /** As said: "friday", "next tuesday", "金曜日". */
  text: string;
  /** With the word that makes it a deadline when there is one: "by friday", "金曜日までに". */
  due: string;
  /** Whether it reads as a deadline ("by", "before", "until", "まで"). */
  deadline: boolean;
  /** Position in the unit's `normal` text. */
  at: number;
}

/** A sentence or clause of the transcript: what the summary ranks and quotes. */
export interface TextUnit {
  index: number;
  segment_id: number;
  start: number;
  end: number;
  speaker: string | null;
  /** The speaker's name where the transcript has one (given by the team, or a recognized voice). */
  speakerName?: string | null;
  /** As said, trimmed of leading fillers. */
  text: string;
  /** Readable form: capitalised and ending with punctuation when the transcript had none. */
  display: string;
  /** Lowercased, normalised text the rules read (English: contractions expanded, tokens space-separated). */
  normal: string;
  /** Content-word lemmas, stop words removed: the TextRank vocabulary. */
  terms: string[];
  /** Keyword candidates: nouns and noun compounds (lemmas). */
  phrases: string[];
  dates: DateMention[];
  /** English only: the tokens behind `normal`, for the rules that need parts of speech. */
  tokens: WordToken[];
  /** The transcript had no casing for this unit (all lowercase), as from the embedded speech engine. */
  uncased: boolean;
}

export interface WordToken {
  value: string;
  normal: string;
  lemma: string;
  pos: string;
  stop: boolean;
  /** Offset of the token in the unit's `normal`. */
  at: number;
}

export interface Found {
  owner: string | null;
  due: string | null;
}

export interface LanguageRules {
  units(document: TranscriptDocument, signal: AbortSignal): Promise<TextUnit[]>;
  actionItem(unit: TextUnit, context: DocumentContext): Found | null;
  isDecision(unit: TextUnit): boolean;
  /** Whether an action item's owner is no one in particular: unknown, or the group ("we", "私たち"). */
  isGroupOwner(owner: string | null): boolean;
  topicsLead(topics: string[]): string;
  /** The overview's sentence of what was decided ("Decided: …"), from the decisions' own words. */
  decidedLead(decisions: string[]): string;
  /** The overview's sentence of who does what ("To do: Alice: …"); the owner is null when unknown. */
  actionsLead(actions: { owner: string | null; text: string }[]): string;
  emptyOverview: string;
}

export interface DocumentContext {
  /** Lemmas seen after a determiner or possessive somewhere: common nouns, not names. */
  determinedNouns: Set<string>;
  /** Every unit of the transcript in order (`units[u.index]` is `u`): who spoke before, whom they addressed. */
  units: readonly TextUnit[];
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new Error('The summary was cancelled.');
  }
}

/** Start/end of a character range of a segment's text, from its words when they line up with the text. */
export function spanTimes(
  segment: TranscriptSegment,
  text: string,
  from: number,
  to: number,
): { start: number; end: number } {
  const words = segment.words.filter((w) => w.word);
  if (words.length === 0) return { start: segment.start, end: segment.end };
  let wordAt: (offset: number) => number;
  if (words.map((w) => w.word).join(' ') === text) {
    wordAt = (offset: number) => {
      let n = 0;
      for (let i = 0; i < offset && i < text.length; i++) if (text[i] === ' ') n++;
      return Math.min(n, words.length - 1);
    };
  } else if (words.map((w) => w.word).join('') === text) {
    // Japanese: words follow one another without spaces; find the word by its character offsets.
    const ends: number[] = [];
    let at = 0;
    for (const w of words) ends.push((at += w.word.length));
    wordAt = (offset: number) => {
      let i = 0;
      while (i < words.length - 1 && offset >= ends[i]!) i++;
      return i;
    };
  } else return { start: segment.start, end: segment.end };
  const first = words[wordAt(from)]!;
  const last = words[wordAt(Math.max(from, to - 1))]!;
  return { start: first.start, end: Math.max(first.start, last.end) };
}

/** What speech recognisers leave in text: silence and noise tokens ("<sil>", "[noise]", "++um++"). */
const RECOGNISER_MARKUP =
  /<\/?(?:s|sil|unk|noise)>|\[(?:noise|laugh(?:ter)?|music|sil|silence|breath|cough|um|uh|inaudible|unk)\]|\+\+[a-z]*\+\+/gi;

/** Removes recogniser markup such as "<sil>", "[noise]", "++um++". */
export function stripMarkup(text: string): string {
  return text.replace(RECOGNISER_MARKUP, ' ').replace(/\s+/g, ' ').trim();
}

/** Index of the element of sorted `starts` at or before `offset`. */
export function indexAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A sentence quoted inside another (the overview's "Decided: …"): without its own full stop. */
export function withoutStop(text: string): string {
  return text.trim().replace(/[.!。！]+$/u, '');
}
