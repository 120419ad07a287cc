import type { CacheMigration } from './index.js';

// Merging, splitting and re-assigning segments change the transcript's structure, which per-segment
// text corrections (segment_edits) cannot hold: the edited transcript is kept whole, as its segment
// list (docs/decisions/0025-edited-documents.md). segment_edits stays: a cache that has corrections
// there and no edited document shows them as before, and the next edit moves them into the document.
export const migration0009: CacheMigration = {
  version: 9,
  name: 'edited documents',
  up: `
    CREATE TABLE edited_documents (
      transcription_id TEXT PRIMARY KEY REFERENCES transcriptions(id) ON DELETE CASCADE,
      segments         TEXT NOT NULL,          -- TranscriptSegment[] JSON, the document as edited here
      edited_at        TEXT NOT NULL
    );
  `,
};
