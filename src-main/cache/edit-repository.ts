// Changes made on this machine: the edited document (and, from older caches, corrected segments),
// speaker names the server cannot hold (decision 0055), and the corrected text last known on the server
// (the base offline edits are checked against).
import type { TranscriptSegment, TranscriptWord } from '../../src-shared/transcript-document.js';
import type { CacheDb } from './database.js';

export interface SegmentEdit {
  segmentId: number;
  text: string;
  words: TranscriptWord[];
}

export class EditRepository {
  constructor(private readonly db: CacheDb) {}

  segmentEdits(transcriptionId: string): Map<number, SegmentEdit> {
    const rows = this.db
      .prepare('SELECT segment_id, text, words FROM segment_edits WHERE transcription_id = ? ORDER BY segment_id')
      .all(transcriptionId) as Array<{ segment_id: number; text: string; words: string }>;
    return new Map(
      rows.map((r) => [
        r.segment_id,
        { segmentId: r.segment_id, text: r.text, words: JSON.parse(r.words) as TranscriptWord[] },
      ]),
    );
  }

  /** Replaces every segment edit of a transcription. */
  replaceSegmentEdits(transcriptionId: string, edits: SegmentEdit[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM segment_edits WHERE transcription_id = ?').run(transcriptionId);
      const insert = this.db.prepare(
        'INSERT INTO segment_edits (transcription_id, segment_id, text, words, edited_at) VALUES (?, ?, ?, ?, ?)',
      );
      const now = new Date().toISOString();
      for (const e of edits) insert.run(transcriptionId, e.segmentId, e.text, JSON.stringify(e.words), now);
    })();
  }

  /** The transcript's segments as edited on this machine; null when it is not edited (or only in segment_edits). */
  editedSegments(transcriptionId: string): TranscriptSegment[] | null {
    const row = this.db
      .prepare('SELECT segments FROM edited_documents WHERE transcription_id = ?')
      .get(transcriptionId) as { segments: string } | undefined;
    return row ? (JSON.parse(row.segments) as TranscriptSegment[]) : null;
  }

  /** Keeps the edited segments (null: none, the server's document is shown); older per-segment corrections go. */
  replaceEditedSegments(transcriptionId: string, segments: TranscriptSegment[] | null): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM segment_edits WHERE transcription_id = ?').run(transcriptionId);
      if (segments === null)
        this.db.prepare('DELETE FROM edited_documents WHERE transcription_id = ?').run(transcriptionId);
      else
        this.db
          .prepare(
            `INSERT INTO edited_documents (transcription_id, segments, edited_at) VALUES (?, ?, ?)
             ON CONFLICT (transcription_id) DO UPDATE SET segments = excluded.segments, edited_at = excluded.edited_at`,
          )
          .run(transcriptionId, JSON.stringify(segments), new Date().toISOString());
    })();
  }

  speakerNames(transcriptionId: string): Record<string, string> {
    const rows = this.db
      .prepare('SELECT speaker, name FROM speaker_names WHERE transcription_id = ?')
      .all(transcriptionId) as Array<{
      speaker: string;
      name: string;
    }>;
    return Object.fromEntries(rows.map((r) => [r.speaker, r.name]));
  }

  /** An empty name goes back to the label. */
  setSpeakerName(transcriptionId: string, speaker: string, name: string): void {
    if (name === '') {
      this.db
        .prepare('DELETE FROM speaker_names WHERE transcription_id = ? AND speaker = ?')
        .run(transcriptionId, speaker);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO speaker_names (transcription_id, speaker, name) VALUES (?, ?, ?)
         ON CONFLICT (transcription_id, speaker) DO UPDATE SET name = excluded.name`,
      )
      .run(transcriptionId, speaker, name);
  }

  /** Undefined: never fetched. Null: the server has no corrected text. */
  serverReview(transcriptionId: string): string | null | undefined {
    const row = this.db
      .prepare('SELECT reviewed_text FROM server_reviews WHERE transcription_id = ?')
      .get(transcriptionId) as { reviewed_text: string | null } | undefined;
    return row === undefined ? undefined : row.reviewed_text;
  }

  setServerReview(transcriptionId: string, reviewedText: string | null): void {
    this.db
      .prepare(
        `INSERT INTO server_reviews (transcription_id, reviewed_text, fetched_at) VALUES (?, ?, ?)
         ON CONFLICT (transcription_id) DO UPDATE SET reviewed_text = excluded.reviewed_text, fetched_at = excluded.fetched_at`,
      )
      .run(transcriptionId, reviewedText, new Date().toISOString());
  }
}
