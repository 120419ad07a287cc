// Changes made on this machine beside the outbox: the undo and redo history, speaker names the server cannot
// hold (decision 0055), and the corrected text last known on the server (the base review texts queued offline
// are checked against, and what a server without revisions shows).
import type { CacheDb } from './database.js';

export class EditRepository {
  constructor(private readonly db: CacheDb) {}

  /** The transcript's undo and redo history as saved (JSON the edit service wrote); null when none. */
  history(transcriptionId: string): unknown {
    const row = this.db
      .prepare('SELECT history FROM edit_histories WHERE transcription_id = ?')
      .get(transcriptionId) as { history: string } | undefined;
    return row ? (JSON.parse(row.history) as unknown) : null;
  }

  /** null: forgets it. */
  setHistory(transcriptionId: string, history: unknown): void {
    if (history === null) {
      this.db.prepare('DELETE FROM edit_histories WHERE transcription_id = ?').run(transcriptionId);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO edit_histories (transcription_id, history, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (transcription_id) DO UPDATE SET history = excluded.history, updated_at = excluded.updated_at`,
      )
      .run(transcriptionId, JSON.stringify(history), new Date().toISOString());
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
