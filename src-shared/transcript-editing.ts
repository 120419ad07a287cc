// The transcript edit model: every edit the transcript view offers (a segment's text, one word, find
// and replace, merge, split, a segment's speaker, a speaker's name) as a pure function on the document,
// the undo/redo history over them, and the review text they are saved as (docs/decisions/0025-edited-documents.md).
// Pure and shared: main applies edits, the server applies the same operations as revisions (decision
// 0052), and the renderer previews find & replace with the same matching.
import type { TranscriptDocument, TranscriptSegment, TranscriptWord } from './transcript-document.js';
import { assertNever } from './assert-never.js';
import { LIMITS } from './limits.js';
import { nextSpeakerLabel } from './speaker-names.js';
import { joinSegmentTexts, joinWords } from './word-text.js';
import { retimeWords, spreadWords, tokenize } from './word-timing.js';

export { nextSpeakerLabel };

export interface FindOptions {
  matchCase: boolean;
  /**
   * Only whole words. A boundary is broken only between two letters or digits of a script written
   * with spaces (Latin, Cyrillic...): Japanese, Chinese and Thai have no marked word boundaries, so
   * next to their characters every position counts as one ("東京" is found in "東京都", "API" in "このAPIは").
   */
  wholeWord: boolean;
}

/** One occurrence: code-unit offsets into the segment's text. */
export interface TextMatch {
  segmentId: number;
  segmentIndex: number;
  start: number;
  end: number;
}

/** An edit of the segments. */
export type SegmentOperation =
  | { kind: 'text'; segmentId: number; text: string }
  | { kind: 'word'; segmentId: number; wordIndex: number; text: string }
  /** `only`: one match (by its segment and start offset); without it, every match. */
  | {
      kind: 'replace';
      query: string;
      replacement: string;
      options: FindOptions;
      only?: { segmentId: number; start: number };
    }
  | { kind: 'merge'; segmentId: number }
  /**
   * The segment is split before its word `wordIndex`; with `speaker`, the second part gets that speaker
   * (one of the transcript's labels or the next new one, as for 'speaker'; decision 0060).
   */
  | { kind: 'split'; segmentId: number; wordIndex: number; speaker?: string | null }
  /** A segment's speaker: one of the transcript's labels, or the next new one (`nextSpeakerLabel`). */
  | { kind: 'speaker'; segmentId: number; speaker: string | null }
  /** Every segment of speaker `from` gets `into`; `from`'s name goes with it (decision 0060). */
  | { kind: 'merge-speakers'; from: string; into: string };

/** A speaker label's name, shared by the team (`speaker_names`); null or blank removes it (decision 0055). */
export interface SpeakerNameOperation {
  kind: 'speaker-name';
  speaker: string;
  name: string | null;
}

export type EditOperation = SegmentOperation | SpeakerNameOperation;

export type EditOutcome = { ok: true; segments: TranscriptSegment[] } | { ok: false; field: string; message: string };

const refuse = (field: string, message: string): EditOutcome => ({ ok: false, field, message });
const tidy = (text: string) => text.replace(/\s+/g, ' ').trim();

// ---------- find ----------

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;
const UNSPACED_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}ー々〆]/u;
const joinsWord = (a: string | undefined, b: string | undefined) =>
  a !== undefined &&
  b !== undefined &&
  LETTER_OR_DIGIT.test(a) &&
  LETTER_OR_DIGIT.test(b) &&
  !UNSPACED_SCRIPT.test(a) &&
  !UNSPACED_SCRIPT.test(b);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function matchesIn(text: string, query: string, options: FindOptions): Array<[number, number]> {
  if (query === '') return [];
  const pattern = new RegExp(escapeRegExp(query), options.matchCase ? 'gu' : 'giu');
  const found: Array<[number, number]> = [];
  for (const m of text.matchAll(pattern)) {
    const start = m.index;
    const end = start + m[0].length;
    if (end === start) continue;
    if (options.wholeWord) {
      const before = Array.from(text.slice(Math.max(0, start - 2), start)).at(-1);
      const first = Array.from(m[0])[0];
      const last = Array.from(m[0]).at(-1);
      const after = Array.from(text.slice(end, end + 2))[0];
      if (joinsWord(before, first) || joinsWord(last, after)) continue;
    }
    found.push([start, end]);
  }
  return found;
}

/** Every occurrence of `query` in the segments' texts, in order. */
export function findMatches(segments: readonly TranscriptSegment[], query: string, options: FindOptions): TextMatch[] {
  const matches: TextMatch[] = [];
  segments.forEach((segment, segmentIndex) => {
    for (const [start, end] of matchesIn(segment.text, query, options))
      matches.push({ segmentId: segment.id, segmentIndex, start, end });
  });
  return matches;
}

// ---------- words inside a segment's text ----------

/** Where each word sits in the segment's text, or null when the words do not spell the text. */
export function wordRanges(segment: Pick<TranscriptSegment, 'text' | 'words'>): Array<[number, number]> | null {
  const ranges: Array<[number, number]> = [];
  let cursor = 0;
  for (const word of segment.words) {
    const token = word.word.trim();
    if (token === '') return null;
    const at = segment.text.indexOf(token, cursor);
    if (at < 0) return null;
    ranges.push([at, at + token.length]);
    cursor = at + token.length;
  }
  return ranges;
}

/**
 * The segment with text[from, to) replaced by `insert`. Words outside the span keep their times; the
 * words the span touches become the new text of that stretch, spread over the time they covered.
 */
export function replaceSpan(segment: TranscriptSegment, from: number, to: number, insert: string): TranscriptSegment {
  const text = segment.text.slice(0, from) + insert + segment.text.slice(to);
  const ranges = wordRanges(segment);
  if (!ranges) return { ...segment, text: tidy(text), words: retimeWords(segment, tidy(text)) };
  const words = segment.words;
  const touched = ranges.flatMap(([s, e], i) => ((from === to ? s < from && from < e : e > from && s < to) ? [i] : []));
  let next: TranscriptWord[];
  if (touched.length > 0) {
    const a = touched[0]!;
    const b = touched.at(-1)!;
    const piece = segment.text.slice(ranges[a]![0], from) + insert + segment.text.slice(to, ranges[b]![1]);
    next = [
      ...words.slice(0, a),
      ...spreadWords(tokenize(piece), words[a]!.start, words[b]!.end),
      ...words.slice(b + 1),
    ];
  } else {
    const k = ranges.findIndex(([s]) => s >= to);
    const at = k < 0 ? words.length : k;
    const gapStart = at > 0 ? words[at - 1]!.end : segment.start;
    const gapEnd = at < words.length ? words[at]!.start : segment.end;
    next = [
      ...words.slice(0, at),
      ...spreadWords(tokenize(insert), gapStart, Math.max(gapStart, gapEnd)),
      ...words.slice(at),
    ];
  }
  return { ...segment, text: tidy(text), words: next };
}

// ---------- operations ----------

function replaceWord(segment: TranscriptSegment, wordIndex: number, text: string, language: string): TranscriptSegment {
  const ranges = wordRanges(segment);
  const value = tidy(text);
  if (ranges) {
    const [from, to] = ranges[wordIndex]!;
    return replaceSpan(segment, from, to, value);
  }
  const old = segment.words[wordIndex]!;
  const words = [
    ...segment.words.slice(0, wordIndex),
    ...spreadWords(tokenize(value), old.start, old.end),
    ...segment.words.slice(wordIndex + 1),
  ];
  return { ...segment, text: joinWords(words, language), words };
}

function splitSegment(
  segment: TranscriptSegment,
  wordIndex: number,
  newId: number,
  language: string,
): [TranscriptSegment, TranscriptSegment] {
  const before = segment.words.slice(0, wordIndex);
  const after = segment.words.slice(wordIndex);
  const ranges = wordRanges(segment);
  const cut = ranges ? ranges[wordIndex]![0] : null;
  const left: TranscriptSegment = {
    ...segment,
    end: before.at(-1)!.end,
    text: cut !== null ? tidy(segment.text.slice(0, cut)) : joinWords(before, language),
    words: before,
  };
  const right: TranscriptSegment = {
    ...segment,
    id: newId,
    start: after[0]!.start,
    text: cut !== null ? tidy(segment.text.slice(cut)) : joinWords(after, language),
    words: after,
  };
  return [left, right];
}

export interface EditContext {
  language: string;
  /** The speaker labels a segment may be given (the transcript's own), besides those its segments carry. */
  speakers: ReadonlySet<string>;
}

/** The labels a segment of `segments` may be given: the context's, those the segments carry, and the next new one. */
function speakerRefusal(
  segments: readonly TranscriptSegment[],
  speaker: string | null,
  context: EditContext,
): EditOutcome | null {
  if (speaker === null || context.speakers.has(speaker) || segments.some((s) => s.speaker === speaker)) return null;
  const next = nextSpeakerLabel([...context.speakers, ...segments.flatMap((s) => (s.speaker ? [s.speaker] : []))]);
  if (speaker === next) return null;
  return refuse(
    'speaker',
    `There is no speaker "${speaker}" in this transcript. A new speaker is "${next}", the next free label.`,
  );
}

/**
 * `segment` given to `speaker`: the enrolled voice a label was recognized as (decision 0065) goes with the
 * label, taken from a segment that has it, so a segment moved to another speaker never keeps the old name.
 */
function withSpeaker(
  segments: readonly TranscriptSegment[],
  segment: TranscriptSegment,
  speaker: string | null,
): TranscriptSegment {
  const next: TranscriptSegment = { ...segment, speaker };
  delete next.speaker_id;
  delete next.speaker_name;
  delete next.speaker_confidence;
  const voiced = segments.find((s) => s.speaker === speaker && s.speaker_id !== undefined);
  if (speaker === null || !voiced) return next;
  return {
    ...next,
    speaker_id: voiced.speaker_id!,
    ...(voiced.speaker_name === undefined ? {} : { speaker_name: voiced.speaker_name }),
    ...(voiced.speaker_confidence === undefined ? {} : { speaker_confidence: voiced.speaker_confidence }),
  };
}

const hasSpeaker = (segments: readonly TranscriptSegment[], label: string, context: EditContext) =>
  context.speakers.has(label) || segments.some((s) => s.speaker === label);

/** Applies one edit of the segments. Segments the edit does not touch are the same objects as before. */
export function applyOperation(
  segments: readonly TranscriptSegment[],
  operation: SegmentOperation,
  context: EditContext,
): EditOutcome {
  const { language } = context;
  if (operation.kind === 'merge-speakers') {
    if (!hasSpeaker(segments, operation.from, context))
      return refuse('from', `There is no speaker "${operation.from}" in this transcript.`);
    if (!hasSpeaker(segments, operation.into, context))
      return refuse('into', `There is no speaker "${operation.into}" in this transcript.`);
    if (operation.from === operation.into)
      return refuse('into', 'A speaker is merged into another speaker, not itself.');
    return {
      ok: true,
      segments: segments.map((s) => (s.speaker === operation.from ? withSpeaker(segments, s, operation.into) : s)),
    };
  }
  if (operation.kind === 'replace') {
    const matches = findMatches(segments, operation.query, operation.options).filter(
      (m) => !operation.only || (m.segmentId === operation.only.segmentId && m.start === operation.only.start),
    );
    if (matches.length === 0)
      return refuse(
        'query',
        operation.only
          ? 'That match is no longer in the transcript. Search again.'
          : 'Nothing in the transcript matches the search.',
      );
    const next = [...segments];
    // From the last match back, so earlier offsets stay valid.
    for (const match of [...matches].reverse())
      next[match.segmentIndex] = replaceSpan(next[match.segmentIndex]!, match.start, match.end, operation.replacement);
    return { ok: true, segments: next };
  }
  const index = segments.findIndex((s) => s.id === operation.segmentId);
  if (index < 0)
    return refuse('segmentId', `The transcript has no segment ${operation.segmentId}. Reload it and try again.`);
  const segment = segments[index]!;
  const next = [...segments];
  switch (operation.kind) {
    case 'text': {
      const text = tidy(operation.text);
      next[index] = text === segment.text ? segment : { ...segment, text, words: retimeWords(segment, text) };
      return { ok: true, segments: next };
    }
    case 'word': {
      if (!segment.words[operation.wordIndex])
        return refuse('wordIndex', 'That word is no longer in the segment. Reload the transcript and try again.');
      next[index] = replaceWord(segment, operation.wordIndex, operation.text, language);
      return { ok: true, segments: next };
    }
    case 'merge': {
      const following = segments[index + 1];
      if (!following) return refuse('segmentId', 'The last segment has no next segment to merge with.');
      next.splice(index, 2, {
        ...segment,
        start: Math.min(segment.start, following.start),
        end: Math.max(segment.end, following.end),
        speaker: segment.speaker ?? following.speaker,
        text: joinSegmentTexts([segment, following], language),
        words: [...segment.words, ...following.words],
      });
      return { ok: true, segments: next };
    }
    case 'split': {
      if (operation.wordIndex <= 0 || operation.wordIndex >= segment.words.length) {
        return refuse('wordIndex', 'A segment is split before one of its words, other than the first.');
      }
      const refused = operation.speaker === undefined ? null : speakerRefusal(segments, operation.speaker, context);
      if (refused) return refused;
      const newId = Math.max(...segments.map((s) => s.id)) + 1;
      const [left, right] = splitSegment(segment, operation.wordIndex, newId, language);
      next.splice(
        index,
        1,
        left,
        operation.speaker === undefined ? right : withSpeaker(segments, right, operation.speaker),
      );
      return { ok: true, segments: next };
    }
    case 'speaker': {
      const refused = speakerRefusal(segments, operation.speaker, context);
      if (refused) return refused;
      next[index] = withSpeaker(segments, segment, operation.speaker);
      return { ok: true, segments: next };
    }
    default:
      // An edit queued by a newer app, or a damaged row of the outbox.
      return assertNever(operation, 'edit operation');
  }
}

export type OperationsOutcome =
  { ok: true; document: TranscriptDocument } | { ok: false; index: number; field: string; message: string };

/** The speaker labels the document's segments carry. */
export const speakerLabelsOf = (document: Pick<TranscriptDocument, 'segments'>): Set<string> =>
  new Set(document.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])));

/** The name an operation gives, tidied; '' removes it. */
export const speakerNameOf = (operation: SpeakerNameOperation): string => tidy(operation.name ?? '');

/**
 * Applies the operations in order to the document; the first that cannot apply stops them all. `speakers`:
 * the labels a segment may be given or a name (by default, those the document carries at each step).
 */
export function applyOperations(
  document: TranscriptDocument,
  operations: readonly EditOperation[],
  speakers?: ReadonlySet<string>,
): OperationsOutcome {
  let current = document;
  for (const [index, operation] of operations.entries()) {
    // A label given to a segment by an earlier operation (a new speaker) counts too.
    const labels = new Set([...(speakers ?? []), ...speakerLabelsOf(current)]);
    if (operation.kind === 'speaker-name') {
      if (!labels.has(operation.speaker))
        return {
          ok: false,
          index,
          field: 'speaker',
          message: `There is no speaker "${operation.speaker}" in this transcript.`,
        };
      const name = speakerNameOf(operation);
      if (name.length > LIMITS.speakerName)
        return {
          ok: false,
          index,
          field: 'name',
          message: `A speaker's name can be at most ${LIMITS.speakerName} characters long. Shorten it and try again.`,
        };
      const names = { ...current.speaker_names };
      if (name === '') delete names[operation.speaker];
      else names[operation.speaker] = name;
      current = { ...current, speaker_names: names };
      continue;
    }
    const outcome = applyOperation(current.segments, operation, { language: current.language, speakers: labels });
    if (!outcome.ok) return { ok: false, index, field: outcome.field, message: outcome.message };
    current = withSegments(current, outcome.segments);
    if (operation.kind === 'merge-speakers' && current.speaker_names?.[operation.from] !== undefined) {
      const { [operation.from]: _gone, ...names } = current.speaker_names;
      current = { ...current, speaker_names: names };
    }
  }
  return { ok: true, document: current };
}

/** Whether two documents name their speakers alike (absent and {} alike). */
export const sameSpeakerNames = (a: TranscriptDocument, b: TranscriptDocument): boolean =>
  JSON.stringify(Object.entries(a.speaker_names ?? {}).sort()) ===
  JSON.stringify(Object.entries(b.speaker_names ?? {}).sort());

/** The document with these segments (and its text joined from them). */
export function withSegments(document: TranscriptDocument, segments: TranscriptSegment[]): TranscriptDocument {
  return segments === document.segments
    ? document
    : { ...document, segments, text: joinSegmentTexts(segments, document.language) };
}

export function sameSegments(a: readonly TranscriptSegment[], b: readonly TranscriptSegment[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i] || JSON.stringify(s) === JSON.stringify(b[i]));
}

// ---------- undo and redo ----------

export interface EditHistory<T> {
  past: T[];
  future: T[];
}

export const HISTORY_LIMIT = 200;

export const emptyHistory = <T>(): EditHistory<T> => ({ past: [], future: [] });

/** After an edit: what was before it can be undone, and nothing is left to redo. */
export function recordEdit<T>(history: EditHistory<T>, before: T, limit = HISTORY_LIMIT): EditHistory<T> {
  return { past: [...history.past, before].slice(-limit), future: [] };
}

/** The state to go back to, and the history after; null when there is nothing to undo. */
export function undoEdit<T>(history: EditHistory<T>, current: T): { state: T; history: EditHistory<T> } | null {
  const state = history.past.at(-1);
  if (state === undefined) return null;
  return { state, history: { past: history.past.slice(0, -1), future: [current, ...history.future] } };
}

export function redoEdit<T>(history: EditHistory<T>, current: T): { state: T; history: EditHistory<T> } | null {
  const state = history.future[0];
  if (state === undefined) return null;
  return { state, history: { past: [...history.past, current], future: history.future.slice(1) } };
}

// ---------- the review text ----------

/**
 * Marks the last line of a review text that carries the edited structure: for each line above it,
 * [segment id, start, end, speaker]. Written only when the structure differs from the server's
 * document (after a merge, a split or a speaker change), so a text-only correction stays plain lines.
 */
export const STRUCTURE_MARK = '#kikitori-segments:v1 ';

type StructureRow = [id: number, start: number, end: number, speaker: string | null];

const structureOf = (segments: readonly TranscriptSegment[]): StructureRow[] =>
  segments.map((s) => [s.id, s.start, s.end, s.speaker]);

/** The text saved through POST /review: one line per segment, plus the structure line when needed. */
export function encodeReview(server: TranscriptDocument, segments: readonly TranscriptSegment[]): string {
  const lines = segments.map((s) => s.text.replace(/\s*\n\s*/g, ' '));
  const structure = structureOf(segments);
  const same = JSON.stringify(structure) === JSON.stringify(structureOf(server.segments));
  return same ? lines.join('\n') : [...lines, STRUCTURE_MARK + JSON.stringify(structure)].join('\n');
}

const isRow = (row: unknown, speakers: ReadonlySet<string>): row is StructureRow =>
  Array.isArray(row) &&
  row.length === 4 &&
  Number.isInteger(row[0]) &&
  typeof row[1] === 'number' &&
  typeof row[2] === 'number' &&
  row[1] <= row[2] &&
  (row[3] === null || (typeof row[3] === 'string' && speakers.has(row[3])));

/**
 * The segments a review text describes, mapped onto the server's document with words re-timed; null
 * when it cannot be mapped (saved by another client in another shape).
 */
export function decodeReview(server: TranscriptDocument, reviewedText: string): TranscriptSegment[] | null {
  const lines = reviewedText.split('\n');
  const last = lines.at(-1)!;
  if (last.startsWith(STRUCTURE_MARK)) {
    let rows: unknown;
    try {
      rows = JSON.parse(last.slice(STRUCTURE_MARK.length));
    } catch {
      return null;
    }
    const speakers = new Set(server.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])));
    const texts = lines.slice(0, -1);
    if (!Array.isArray(rows) || rows.length !== texts.length || !rows.every((r) => isRow(r, speakers))) return null;
    if (new Set(rows.map((r) => r[0])).size !== rows.length) return null;
    const serverWords = server.segments.flatMap((s) => s.words);
    return rows.map(([id, start, end, speaker], i) => {
      // The server's words heard within this segment's time: their timing carries over.
      const words = serverWords.filter((w) => (w.start + w.end) / 2 >= start && (w.start + w.end) / 2 <= end);
      const text = tidy(texts[i]!);
      return { id, start, end, speaker, text, words: retimeWords({ start, end, words }, text) };
    });
  }
  if (lines.length !== server.segments.length) return null;
  return server.segments.map((s, i) => {
    const text = tidy(lines[i]!);
    return text === s.text ? s : { ...s, text, words: retimeWords(s, text) };
  });
}
