// The transcript as this machine shows, searches, exports and sends it: the server's revision as cached,
// with the edits waiting to be sent applied on top (decision 0054). Derived, never stored twice: queued
// operations, or a queued review text (a server without revisions, or edits queued before operations)
// mapped onto the document; a server without revisions shows the review text it answered last.
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { decodeReview, withSegments } from '../../src-shared/transcript-editing.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { QueuedOperations } from './queued-edits.js';
import { withOperations } from './queued-edits.js';

export function shownDocument(
  server: TranscriptDocument,
  store: Pick<CacheStore, 'edits' | 'outbox'>,
  id: string,
): TranscriptDocument {
  const queued = store.outbox.forTarget('revision-operations', id);
  if (queued) return withOperations(server, (queued.payload as QueuedOperations).operations);
  const review = store.outbox.forTarget('review', id);
  const text =
    review !== null
      ? (review.payload as { reviewedText: string }).reviewedText
      : server.revision === undefined
        ? store.edits.serverReview(id)
        : null;
  const segments = text ? decodeReview(server, text) : null;
  return segments ? withSegments(server, segments) : server;
}
