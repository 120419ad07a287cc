// Edits queued as revision operations while the server cannot take them (decision 0054): what they make of
// the revision they were made on, which segments they touch, and the conflict they meet when a teammate
// changed the same segments on the server meanwhile. Pure: no cache, no network.
import type { ConflictSide, SegmentConflict } from '../../src-shared/ipc-contract.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import { applyOperation, applyOperations, type EditOperation } from '../../src-shared/transcript-editing.js';

/** An outbox entry's payload: the edits in the order they were made. */
export interface QueuedOperations {
  operations: EditOperation[];
}

/** The revision the queued operations were made on. */
export interface QueuedBase {
  revision: number;
}

/** What the server had when it refused the queued operations over segments (the outbox entry's `conflict`). */
export interface EditConflict {
  /** The revision the server's side is from: the settled choices are made on it. */
  latestRevision: number;
  segments: Array<Omit<SegmentConflict, 'mine'>>;
}

const speakerLabels = (document: TranscriptDocument) =>
  new Set(document.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])));

/** The context edits of `document` are checked in. */
export const editContextOf = (document: TranscriptDocument) => ({
  language: document.language,
  speakers: speakerLabels(document),
});

/**
 * The document with the queued operations applied in order. An operation that no longer applies (the
 * cached revision is not the one they were made on) is passed over, so what is shown stays as close to the
 * edits as it can; sending them is where such a mismatch is refused.
 */
export function withOperations(document: TranscriptDocument, operations: readonly EditOperation[]): TranscriptDocument {
  const speakers = speakerLabels(document);
  let current = document;
  for (const operation of operations) {
    const outcome = applyOperations(current, [operation], speakers);
    if (outcome.ok) current = outcome.document;
  }
  return current;
}

const sameContent = (a: TranscriptSegment, b: TranscriptSegment) =>
  a === b || (a.text === b.text && a.speaker === b.speaker && a.start === b.start && a.end === b.end);

/** Ids of the segments that differ between two versions: changed, added or removed. */
export function changedSegmentIds(before: readonly TranscriptSegment[], after: readonly TranscriptSegment[]) {
  const old = new Map(before.map((s) => [s.id, s]));
  const changed = new Set<number>();
  for (const segment of after) {
    const was = old.get(segment.id);
    if (!was || !sameContent(was, segment)) changed.add(segment.id);
    old.delete(segment.id);
  }
  for (const id of old.keys()) changed.add(id);
  return changed;
}

/**
 * The queued operations split in two: those that touch a segment in conflict, or a segment one of those
 * touched (a split's new half, a merge's neighbour), and the rest, which apply to the base on their own and
 * touch none of the conflicting segments (checked by applying them again without the others).
 */
export function operationsApart(
  base: TranscriptDocument,
  operations: readonly EditOperation[],
  conflicting: ReadonlySet<number>,
): { apart: EditOperation[]; involved: EditOperation[] } {
  const context = editContextOf(base);
  const involvedIds = new Set(conflicting);
  const involved = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    let segments = base.segments;
    for (const [index, operation] of operations.entries()) {
      // A speaker's name touches no segment: it is sent with the edits apart.
      if (involved.has(index) || operation.kind === 'speaker-name') continue;
      const outcome = applyOperation(segments, operation, context);
      const touched = outcome.ok ? changedSegmentIds(segments, outcome.segments) : new Set<number>();
      if (!outcome.ok || [...touched].some((id) => involvedIds.has(id))) {
        involved.add(index);
        for (const id of touched) involvedIds.add(id);
        grew = true;
        continue;
      }
      segments = outcome.segments;
    }
  }
  return {
    apart: operations.filter((_, i) => !involved.has(i)),
    involved: operations.filter((_, i) => involved.has(i)),
  };
}

export const sideOf = (segment: TranscriptSegment | undefined): ConflictSide | null =>
  segment ? { text: segment.text, speaker: segment.speaker } : null;

/**
 * The segments changed both by the queued operations (base → mine) and on the server (base → theirs),
 * with who changed each on the server: `revisions` are the revisions after the base, in order, with their
 * authors and documents (a null document: not read, so its author counts for every segment, and the next is
 * compared with the last one read).
 */
export function conflictOver(
  base: TranscriptDocument,
  mine: TranscriptDocument,
  theirs: TranscriptDocument & { revision: number },
  revisions: Array<{ author: string; document: TranscriptDocument | null }>,
): EditConflict {
  const ours = changedSegmentIds(base.segments, mine.segments);
  const conflicting = [...changedSegmentIds(base.segments, theirs.segments)].filter((id) => ours.has(id));
  const authors = new Map(conflicting.map((id) => [id, new Set<string>()]));
  let previous = base.segments;
  for (const { author, document } of revisions) {
    const changed = document ? changedSegmentIds(previous, document.segments) : null;
    for (const [id, names] of authors) if (!changed || changed.has(id)) names.add(author);
    if (document) previous = document.segments;
  }
  const theirsById = new Map(theirs.segments.map((s) => [s.id, s]));
  const mineById = new Map(mine.segments.map((s) => [s.id, s]));
  const baseById = new Map(base.segments.map((s) => [s.id, s]));
  const segments = conflicting.map((segmentId) => {
    const where = theirsById.get(segmentId) ?? mineById.get(segmentId) ?? baseById.get(segmentId)!;
    return {
      segmentId,
      start: where.start,
      end: where.end,
      theirs: sideOf(theirsById.get(segmentId)),
      theirAuthors: [...authors.get(segmentId)!],
    };
  });
  segments.sort((a, b) => a.start - b.start || a.segmentId - b.segmentId);
  return { latestRevision: theirs.revision, segments };
}
