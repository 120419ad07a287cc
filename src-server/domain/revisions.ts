// A transcript's revisions (decision 0052): what a revision changed, kept as a compact change against the
// one before (the segments it wrote or removed, their order when it moved, the document fields it set),
// replayed on the nearest full snapshot; and how operations based on an older revision are rebased.
// Pure: no storage, no database.
import type {
  AppliedReplacement,
  TranscriptDocument,
  TranscriptSegment,
} from '../../src-shared/transcript-document.js';
import {
  applyOperations,
  decodeReview,
  speakerLabelsOf,
  speakerNameOf,
  STRUCTURE_MARK,
  type EditOperation,
} from '../../src-shared/transcript-editing.js';
import { retimeWords } from '../../src-shared/word-timing.js';
import { joinSegmentTexts } from '../../src-shared/word-text.js';

/** Every this many revisions the whole document is stored, so a read replays at most this many changes. */
export const SNAPSHOT_EVERY = 50;

export const REVISION_SOURCES = ['recognized', 'review', 'edit', 'dictionary', 'restore', 'transcribed-again'] as const;
export type RevisionSource = (typeof REVISION_SOURCES)[number];

/** What one revision changed, against the one before it. */
export interface RevisionChange {
  /** Segments written whole: new, or changed in any field. */
  set: TranscriptSegment[];
  /** Ids of segments removed (merged into another). */
  removed: number[];
  /** The ids in order, when the order or the set of ids moved (merge, split, restore). */
  order?: number[];
  replacements?: AppliedReplacement[];
  speaker_names?: Record<string, string>;
}

/** What a change, or a run of them, touched: where two writers would meet. */
export interface Touched {
  segments: number[];
  speakers: string[];
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
const namesOf = (document: TranscriptDocument) => document.speaker_names ?? {};

export function diffDocuments(before: TranscriptDocument, after: TranscriptDocument): RevisionChange {
  const old = new Map(before.segments.map((s) => [s.id, s]));
  const ids = new Set(after.segments.map((s) => s.id));
  const change: RevisionChange = {
    set: after.segments.filter((s) => !same(old.get(s.id), s)),
    removed: before.segments.filter((s) => !ids.has(s.id)).map((s) => s.id),
  };
  const sameOrder =
    before.segments.length === after.segments.length && before.segments.every((s, i) => s.id === after.segments[i]!.id);
  if (!sameOrder) change.order = after.segments.map((s) => s.id);
  if (!same(before.replacements, after.replacements)) change.replacements = after.replacements;
  if (!same(namesOf(before), namesOf(after))) change.speaker_names = namesOf(after);
  return change;
}

export const isEmptyChange = (change: RevisionChange) =>
  change.set.length === 0 &&
  change.removed.length === 0 &&
  !change.order &&
  !change.replacements &&
  !change.speaker_names;

export function applyChange(document: TranscriptDocument, change: RevisionChange): TranscriptDocument {
  const written = new Map(change.set.map((s) => [s.id, s]));
  const removed = new Set(change.removed);
  let segments: TranscriptSegment[];
  if (change.order) {
    const byId = new Map(document.segments.map((s) => [s.id, s]));
    segments = change.order.map((id) => {
      const segment = written.get(id) ?? byId.get(id);
      if (!segment) throw new Error(`revision change names segment ${id}, which neither it nor its base has`);
      return segment;
    });
  } else {
    segments = document.segments.filter((s) => !removed.has(s.id)).map((s) => written.get(s.id) ?? s);
  }
  return {
    ...document,
    segments,
    text: joinSegmentTexts(segments, document.language),
    ...(change.replacements ? { replacements: change.replacements } : {}),
    ...(change.speaker_names ? { speaker_names: change.speaker_names } : {}),
  };
}

/**
 * What a run of changes touched, starting from `before` (the document they apply to): a speaker label counts
 * only when its name moved.
 */
export function touchedBy(changes: readonly RevisionChange[], before: TranscriptDocument): Touched {
  const segments = new Set<number>();
  const speakers = new Set<string>();
  let names = namesOf(before);
  for (const change of changes) {
    for (const s of change.set) segments.add(s.id);
    for (const id of change.removed) segments.add(id);
    if (change.speaker_names) {
      for (const label of new Set([...Object.keys(names), ...Object.keys(change.speaker_names)]))
        if (names[label] !== change.speaker_names[label]) speakers.add(label);
      names = change.speaker_names;
    }
  }
  return { segments: [...segments].sort((a, b) => a - b), speakers: [...speakers].sort() };
}

export function overlap(a: Touched, b: Touched): Touched {
  const segments = new Set(b.segments);
  const speakers = new Set(b.speakers);
  return {
    segments: a.segments.filter((id) => segments.has(id)),
    speakers: a.speakers.filter((label) => speakers.has(label)),
  };
}

export const isEmptyTouched = (t: Touched) => t.segments.length === 0 && t.speakers.length === 0;

// ---------- operations ----------

export type RebaseOutcome =
  | { kind: 'applied'; document: TranscriptDocument; rebased: boolean }
  | { kind: 'invalid'; index: number; field: string; message: string }
  | { kind: 'conflict'; touched: Touched };

/**
 * Operations a client made on revision `base`, brought onto `latest`. They apply as they are when they touch
 * nothing the revisions since `base` touched (`since`), and touch the same there as they did on `base`;
 * otherwise they conflict on what both touched, and nothing is written.
 */
export function rebaseOperations(
  base: TranscriptDocument,
  latest: TranscriptDocument,
  since: Touched,
  operations: readonly EditOperation[],
  baseIsLatest: boolean,
): RebaseOutcome {
  const onBase = applyOperations(base, operations);
  if (!onBase.ok) return { kind: 'invalid', ...onBase };
  if (baseIsLatest) return { kind: 'applied', document: onBase.document, rebased: false };
  // Segments the operations created on the base (a split's new id) are theirs alone; on the latest a split
  // gets the next free id there.
  const inBase = new Set(base.segments.map((s) => s.id));
  const touchedOnBase = touchedBy([diffDocuments(base, onBase.document)], base);
  const intended = { ...touchedOnBase, segments: touchedOnBase.segments.filter((id) => inBase.has(id)) };
  // A new speaker label (decision 0060) someone else brought in since means their speaker, not this one.
  const latestLabels = speakerLabelsOf(latest);
  const baseLabels = speakerLabelsOf(base);
  const bothNew = [...speakerLabelsOf(onBase.document)].filter((l) => !baseLabels.has(l) && latestLabels.has(l));
  if (bothNew.length > 0)
    return { kind: 'conflict', touched: { segments: intended.segments, speakers: bothNew.sort() } };
  const onLatest = applyOperations(latest, operations);
  if (!onLatest.ok) {
    // It applied to what the client saw and not to what is there now: someone changed what it needs.
    const conflict = overlap(intended, since);
    return { kind: 'conflict', touched: isEmptyTouched(conflict) ? intended : conflict };
  }
  const done = touchedBy([diffDocuments(latest, onLatest.document)], latest);
  const conflict = {
    segments: [...new Set([...overlap(intended, since).segments, ...overlap(done, since).segments])].sort(
      (a, b) => a - b,
    ),
    speakers: [...new Set([...overlap(intended, since).speakers, ...overlap(done, since).speakers])].sort(),
  };
  if (!isEmptyTouched(conflict)) return { kind: 'conflict', touched: conflict };
  return { kind: 'applied', document: onLatest.document, rebased: true };
}

// ---------- the review text (POST /review) ----------

/**
 * The segments a review text describes. One line per segment (with the desktop app's structure line, read
 * for reviews saved before revisions, decision 0025) maps onto the document; any other text becomes one
 * segment per line, spread over the transcript's time by length, so the document still reads as the review.
 */
export function reviewSegments(document: TranscriptDocument, reviewedText: string): TranscriptSegment[] {
  const decoded = decodeReview(document, reviewedText);
  if (decoded) return decoded;
  const lines = reviewedText
    .split('\n')
    .filter((line, i, all) => !(i === all.length - 1 && line.startsWith(STRUCTURE_MARK)));
  const first = document.segments[0];
  const from = first ? first.start : 0;
  const to = Math.max(from, document.segments.at(-1)?.end ?? document.duration);
  const weights = lines.map((line) => Math.max(1, [...line].length));
  const total = weights.reduce((sum, w) => sum + w, 0);
  const words = document.segments.flatMap((s) => s.words);
  let at = from;
  return lines.map((line, id) => {
    const start = at;
    const end = id === lines.length - 1 ? to : at + ((to - from) * weights[id]!) / total;
    at = end;
    const middle = (start + end) / 2;
    const heard = words.filter((w) => (w.start + w.end) / 2 >= start && (w.start + w.end) / 2 <= end);
    const speaker = document.segments.find((s) => s.start <= middle && middle <= s.end)?.speaker ?? null;
    const text = line.replace(/\s+/g, ' ').trim();
    return { id, start, end, speaker, text, words: retimeWords({ start, end, words: heard }, text) };
  });
}

/** The review text of a document: one line per segment. */
export const reviewText = (document: TranscriptDocument) =>
  document.segments.map((s) => s.text.replace(/\s*\n\s*/g, ' ')).join('\n');

// ---------- summaries ----------

const quote = (text: string) => (text.length > 40 ? `"${text.slice(0, 39)}…"` : `"${text}"`);

function describe(operation: EditOperation): string {
  switch (operation.kind) {
    case 'text':
      return `Edited segment ${operation.segmentId}`;
    case 'word':
      return `Changed a word in segment ${operation.segmentId} to ${quote(operation.text)}`;
    case 'replace':
      return `Replaced ${quote(operation.query)} with ${quote(operation.replacement)}${operation.only ? ` in segment ${operation.only.segmentId}` : ''}`;
    case 'merge':
      return `Merged segment ${operation.segmentId} with the next`;
    case 'split':
      return operation.speaker === undefined
        ? `Split segment ${operation.segmentId}`
        : `Split segment ${operation.segmentId}, the second part to ${operation.speaker ?? 'no speaker'}`;
    case 'merge-speakers':
      return `Merged ${operation.from} into ${operation.into}`;
    case 'speaker':
      return `Set the speaker of segment ${operation.segmentId} to ${operation.speaker ?? 'none'}`;
    case 'speaker-name': {
      const name = speakerNameOf(operation);
      return name ? `Named ${operation.speaker} ${quote(name)}` : `Removed the name of ${operation.speaker}`;
    }
  }
}

/** A short line saying what the operations did. */
export function summarizeOperations(operations: readonly EditOperation[]): string {
  if (operations.length === 1) return describe(operations[0]!);
  return `${operations.length} edits: ${operations.slice(0, 3).map(describe).join('; ')}${operations.length > 3 ? '; …' : ''}`;
}

export function summarizeChange(change: RevisionChange, what: string): string {
  const segments = new Set([...change.set.map((s) => s.id), ...change.removed]).size;
  return segments === 0 ? what : `${what}: ${segments} segment${segments === 1 ? '' : 's'} changed`;
}
