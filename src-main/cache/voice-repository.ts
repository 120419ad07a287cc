// The team's voice library as last listed (decision 0075): names and counts, never the voice prints.
import type { ApiSpeaker } from '../../src-shared/api-types.js';
import type { VoiceSummary } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';

interface VoiceRow {
  id: string;
  name: string;
  sample_count: number;
  speech_seconds: number;
  created_at: string;
  updated_at: string;
  listed_at: string;
}

const summaryOf = (r: VoiceRow): VoiceSummary => ({
  id: r.id,
  name: r.name,
  sampleCount: r.sample_count,
  speechSeconds: r.speech_seconds,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class VoiceRepository {
  constructor(private readonly db: CacheDb) {}

  /** Records the server's whole list: voices missing from it were deleted elsewhere and go too. */
  putList(voices: ApiSpeaker[], now = new Date().toISOString()): void {
    this.db.transaction(() => {
      this.db
        .prepare(`DELETE FROM voices WHERE id NOT IN (SELECT value FROM json_each(?))`)
        .run(JSON.stringify(voices.map((v) => v.speaker_id)));
      for (const v of voices) this.put(v, now);
    })();
  }

  put(v: ApiSpeaker, now = new Date().toISOString()): VoiceSummary {
    this.db
      .prepare(
        `INSERT INTO voices (id, name, sample_count, speech_seconds, created_at, updated_at, listed_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, sample_count = excluded.sample_count,
           speech_seconds = excluded.speech_seconds, created_at = excluded.created_at, updated_at = excluded.updated_at,
           listed_at = excluded.listed_at`,
      )
      .run(v.speaker_id, v.name, v.samples.length, v.speech_seconds, v.created_at, v.updated_at, now);
    return this.get(v.speaker_id)!;
  }

  /** Newest first, as the server lists them. */
  list(): VoiceSummary[] {
    return (this.db.prepare('SELECT * FROM voices ORDER BY created_at DESC, id DESC').all() as VoiceRow[]).map(
      summaryOf,
    );
  }

  /** When the list was last had from the server; null when no voice is cached. */
  listedAt(): string | null {
    return (this.db.prepare('SELECT max(listed_at) AS at FROM voices').get() as { at: string | null }).at;
  }

  get(id: string): VoiceSummary | null {
    const row = this.db.prepare('SELECT * FROM voices WHERE id = ?').get(id) as VoiceRow | undefined;
    return row ? summaryOf(row) : null;
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM voices WHERE id = ?').run(id);
  }
}
