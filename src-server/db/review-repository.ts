// Reviews saved before revisions (decision 0052): read once, into a transcript's revision 2. Nothing writes
// here any more; a review is a revision now.
import type { Kdb } from './schema.js';

export interface ReviewRepository {
  get(transcriptionId: string): Promise<string | null>;
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
}
