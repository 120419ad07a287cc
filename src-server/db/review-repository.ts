// Reviewed (human-corrected) transcript text, one per transcription.
import type { Kdb } from './schema.js';
import { nowIso } from '../domain/records.js';

export interface ReviewRepository {
  get(transcriptionId: string): Promise<string | null>;
  save(transcriptionId: string, reviewedText: string): Promise<void>;
}

export class KyselyReviewRepository implements ReviewRepository {
  constructor(private readonly db: Kdb) {}

  async get(transcriptionId: string) {
    const row = await this.db
      .selectFrom('reviews')
      .select('reviewed_text')
      .where('transcription_id', '=', transcriptionId)
      .executeTakeFirst();
    return row?.reviewed_text ?? null;
  }

  async save(transcriptionId: string, reviewedText: string) {
    const now = nowIso();
    await this.db
      .insertInto('reviews')
      .values({ transcription_id: transcriptionId, reviewed_text: reviewedText, created_at: now, updated_at: now })
      .onConflict((oc) =>
        oc.column('transcription_id').doUpdateSet((eb) => ({
          reviewed_text: eb.ref('excluded.reviewed_text'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
