// Audio kept on this machine for offline playback and peaks: the original copied at upload, or the
// server's copy downloaded from `audio_path`. The files live under the profile's cache dir.
import type { CacheDb } from './database.js';

export interface CachedAudio {
  transcriptionId: string;
  file: string;
  size: number;
  contentType: string | null;
  source: 'upload' | 'download';
  cachedAt: string;
}

interface Row {
  transcription_id: string;
  file: string;
  size: number;
  content_type: string | null;
  source: 'upload' | 'download';
  cached_at: string;
}

export class AudioRepository {
  constructor(private readonly db: CacheDb) {}

  put(audio: Omit<CachedAudio, 'cachedAt'>): void {
    this.db
      .prepare(
        `INSERT INTO audio_files (transcription_id, file, size, content_type, source, cached_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (transcription_id) DO UPDATE SET file = excluded.file, size = excluded.size, content_type = excluded.content_type,
           source = excluded.source, cached_at = excluded.cached_at`,
      )
      .run(audio.transcriptionId, audio.file, audio.size, audio.contentType, audio.source, new Date().toISOString());
  }

  get(transcriptionId: string): CachedAudio | null {
    const row = this.db.prepare('SELECT * FROM audio_files WHERE transcription_id = ?').get(transcriptionId) as
      Row | undefined;
    return row
      ? {
          transcriptionId: row.transcription_id,
          file: row.file,
          size: row.size,
          contentType: row.content_type,
          source: row.source,
          cachedAt: row.cached_at,
        }
      : null;
  }

  /** Which of `ids` have audio on this machine. */
  cachedAmong(ids: string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const rows = this.db
      .prepare(
        `SELECT transcription_id AS id FROM audio_files WHERE transcription_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Array<{ id: string }>;
    return new Set(rows.map((r) => r.id));
  }

  /** Forgets the file; returns its path so the caller can remove it from disk. */
  delete(transcriptionId: string): string | null {
    const existing = this.get(transcriptionId);
    this.db.prepare('DELETE FROM audio_files WHERE transcription_id = ?').run(transcriptionId);
    return existing?.file ?? null;
  }
}
