// What a revision changed (History, decision 0052): its document and the one before it, read from the
// server, compared segment by segment (by id, so a merge shows as one segment grown and one removed, a
// split as one shortened and one added), with the speaker names and dictionary replacements that moved.
// Revision 1 is the transcript as recognized: nothing before it to compare with.
import {
  MAX_REVISION_SEGMENT_CHANGES,
  type RevisionChanges,
  type RevisionSegmentChange,
} from '../../src-shared/ipc-contract.js';
import type { TranscriptDocument, TranscriptSegment } from '../../src-shared/transcript-document.js';
import type { ApiClient } from '../api-client/api-client.js';

export async function revisionChanges(
  client: Pick<ApiClient, 'getRevision'>,
  id: string,
  revision: number,
): Promise<RevisionChanges> {
  const [after, before] = await Promise.all([
    client.getRevision(id, revision),
    revision > 1 ? client.getRevision(id, revision - 1) : null,
  ]);
  return { revision, ...documentChanges(before?.document ?? null, after.document) };
}

/** The changes from `before` to `after`; none when there is no `before`. */
export function documentChanges(
  before: TranscriptDocument | null,
  after: TranscriptDocument,
): Omit<RevisionChanges, 'revision'> {
  const none = { language: after.language, segments: [], moreSegments: 0, speakerNames: [], replacements: [] };
  if (!before) return none;
  const segments = segmentChanges(before.segments, after.segments);
  return {
    ...none,
    segments: segments.slice(0, MAX_REVISION_SEGMENT_CHANGES),
    moreSegments: Math.max(0, segments.length - MAX_REVISION_SEGMENT_CHANGES),
    speakerNames: nameChanges(before.speaker_names ?? {}, after.speaker_names ?? {}),
    replacements: replacementsMade(before, after),
  };
}

const side = (s: TranscriptSegment) => ({ text: s.text, speaker: s.speaker });

function segmentChanges(before: TranscriptSegment[], after: TranscriptSegment[]): RevisionSegmentChange[] {
  const old = new Map(before.map((s) => [s.id, s]));
  const kept = new Set(after.map((s) => s.id));
  const changes: RevisionSegmentChange[] = [];
  for (const segment of after) {
    const was = old.get(segment.id);
    if (was && was.text === segment.text && was.speaker === segment.speaker) continue;
    changes.push({ segmentId: segment.id, start: segment.start, before: was ? side(was) : null, after: side(segment) });
  }
  for (const segment of before)
    if (!kept.has(segment.id))
      changes.push({ segmentId: segment.id, start: segment.start, before: side(segment), after: null });
  // In the order of the audio, so a removed segment comes after the one it was merged into.
  return changes.sort((a, b) => a.start - b.start || a.segmentId - b.segmentId);
}

function nameChanges(before: Record<string, string>, after: Record<string, string>): RevisionChanges['speakerNames'] {
  const labels = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return labels
    .filter((label) => before[label] !== after[label])
    .map((speaker) => ({ speaker, before: before[speaker] ?? null, after: after[speaker] ?? null }));
}

/** A dictionary re-apply adds to the counts of the document's `replacements` (or lists a new rule). */
function replacementsMade(before: TranscriptDocument, after: TranscriptDocument): RevisionChanges['replacements'] {
  const key = (r: { pattern: string; replacement: string }) => JSON.stringify([r.pattern, r.replacement]);
  const counted = new Map(before.replacements.map((r) => [key(r), r.count]));
  return after.replacements.flatMap((r) => {
    const count = r.count - (counted.get(key(r)) ?? 0);
    return count > 0 ? [{ pattern: r.pattern, replacement: r.replacement, count }] : [];
  });
}
