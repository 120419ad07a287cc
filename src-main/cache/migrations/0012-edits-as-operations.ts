import type { CacheMigration } from './index.js';

// Offline edits are queued as revision operations, and what is shown is derived: the cached revision with
// the queued operations applied, or with a queued review text mapped onto it (decision 0054). The edited
// copies go:
// - an edited document or older segment edits with an outbox entry: the entry's review text already holds
//   them (both were written in the same transaction), and it is still sent once through POST /review;
// - without an entry, they were sent (or are the server's review mapped here): the server has them. For a
//   server with revisions, the review text last read is forgotten too, so the next read of the transcript
//   sees a change and caches the latest revision instead of the older one the copy sat on.
// Undo and redo are kept per transcript across restarts; an entry in conflict keeps what the server had.
export const migration0012: CacheMigration = {
  version: 12,
  name: 'edits as operations',
  up: `
    DELETE FROM server_reviews
     WHERE transcription_id IN (
             SELECT transcription_id FROM edited_documents
             UNION SELECT transcription_id FROM segment_edits)
       AND transcription_id NOT IN (SELECT target_id FROM outbox)
       AND transcription_id IN (
             SELECT transcription_id FROM transcript_documents
              WHERE json_extract(document, '$.revision') IS NOT NULL);
    DROP TABLE edited_documents;
    DROP TABLE segment_edits;

    ALTER TABLE outbox ADD COLUMN conflict TEXT;  -- EditConflict JSON: the server's side of a conflict over segments

    CREATE TABLE edit_histories (
      transcription_id TEXT PRIMARY KEY REFERENCES transcriptions(id) ON DELETE CASCADE,
      history          TEXT NOT NULL,          -- { past, future, last }: revision numbers and queued operations
      updated_at       TEXT NOT NULL
    );
  `,
};
