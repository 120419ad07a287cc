// The transcript as this machine shows, searches, exports and sends it: the server's latest revision as
// cached, with the edits kept here on top while they wait to be sent (offline, or a conflict to settle;
// docs/decisions/0025-edited-documents.md, 0052-revisions.md).
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { withSegments } from '../../src-shared/transcript-editing.js';
import type { EditRepository } from '../cache/edit-repository.js';
import { applyEdits } from './transcript-edits.js';

export function shownDocument(server: TranscriptDocument, edits: EditRepository, id: string): TranscriptDocument {
  const edited = edits.editedSegments(id);
  // A cache from before edited documents keeps its per-segment corrections until the next edit.
  return edited ? withSegments(server, edited) : applyEdits(server, edits.segmentEdits(id));
}
