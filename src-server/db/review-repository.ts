// Reviewed (human-corrected) transcript text, one per transcription.
import type { Db } from './database.js';
import { nowIso } from '../domain/records.js';

export interface ReviewRepository {
  get(transcriptionId: string): Promise<string | null>;
  save(transcriptionId: string, reviewedText: string): Promise<void>;
}

export class SqliteReviewRepository implements ReviewRepository {
  constructor(private readonly db: Db) {}

  async get(transcriptionId: string) {
    const row = this.db.prepare('SELECT reviewed_text FROM reviews WHERE transcription_id = ?').get(transcriptionId) as
      | { reviewed_text: string }
      | undefined;
    return row?.reviewed_text ?? null;
  }

  async save(transcriptionId: string, reviewedText: string) {
    const now = nowIso();
    this.db
      .prepare(
        `INSERT INTO reviews (transcription_id, reviewed_text, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (transcription_id) DO UPDATE SET reviewed_text = excluded.reviewed_text, updated_at = excluded.updated_at`,
      )
      .run(transcriptionId, reviewedText, now, now);
  }
}
