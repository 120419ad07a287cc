// Local corrections of a transcript: how they overlay the server's document, how they become the
// review text the server stores, and how a review text from the server becomes corrections again.
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { joinSegmentTexts } from '../../src-shared/word-text.js';
import { retimeWords } from '../../src-shared/word-timing.js';
import type { TranscriptWord } from '../../src-shared/transcript-document.js';

/** A corrected segment text with re-timed words (the corrections of caches before decision 0025). */
export interface SegmentEdit {
  segmentId: number;
  text: string;
  words: TranscriptWord[];
}

/**
 * The document with corrected segments. Speakers keep the engine's labels: the user's names for them
 * are a separate map (src-shared/speaker-names.ts), so a renamed speaker is still that speaker.
 */
export function applyEdits(document: TranscriptDocument, edits: Map<number, SegmentEdit>): TranscriptDocument {
  const segments = document.segments.map((s) => {
    const edit = edits.get(s.id);
    return edit ? { ...s, text: edit.text, words: edit.words } : s;
  });
  const changed = edits.size > 0;
  return {
    ...document,
    segments,
    text: changed ? joinSegmentTexts(segments, document.language) : document.text,
  };
}

/**
 * The text saved through POST /review: one line per segment, in order (empty segments keep their
 * line), so another machine can map it back onto segments (docs/decisions/0007-offline-edits.md).
 */
export function reviewedTextOf(document: TranscriptDocument): string {
  return document.segments.map((s) => s.text.replace(/\s*\n\s*/g, ' ')).join('\n');
}

/**
 * Merges new segment texts into the existing edits. Timing always starts from the server's words,
 * which carry real times. Edits that bring a segment back to the server's text disappear.
 */
export function mergeEdits(
  server: TranscriptDocument,
  existing: Map<number, SegmentEdit>,
  changes: Array<{ id: number; text: string }>,
): SegmentEdit[] {
  const merged = new Map(existing);
  const byId = new Map(server.segments.map((s) => [s.id, s]));
  for (const change of changes) {
    const segment = byId.get(change.id);
    if (!segment) continue;
    const text = change.text.replace(/\s+/g, ' ').trim();
    if (text === segment.text) merged.delete(change.id);
    else merged.set(change.id, { segmentId: change.id, text, words: retimeWords(segment, text) });
  }
  return [...merged.values()].sort((a, b) => a.segmentId - b.segmentId);
}

/**
 * Corrections encoded in a review text saved elsewhere. Null when the text does not have one line per
 * segment (saved by another client in another shape): it cannot be mapped onto segments then.
 */
export function editsFromReviewedText(server: TranscriptDocument, reviewedText: string): SegmentEdit[] | null {
  const lines = reviewedText.split('\n');
  if (lines.length !== server.segments.length) return null;
  return mergeEdits(
    server,
    new Map(),
    server.segments.map((s, i) => ({ id: s.id, text: lines[i]! })),
  );
}
