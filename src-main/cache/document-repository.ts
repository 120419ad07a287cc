// Transcript documents as downloaded from `transcription_path`. Local edits are kept apart
// (edit-repository.ts) and applied on read, so the server's version is never lost.
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { CacheDb } from './database.js';

export function countSpeakers(document: TranscriptDocument): number {
  return new Set(document.segments.map((s) => s.speaker).filter((s): s is string => s !== null)).size;
}

export class DocumentRepository {
  constructor(private readonly db: CacheDb) {}

  put(transcriptionId: string, document: TranscriptDocument): void {
    this.db
      .prepare(
        `INSERT INTO transcript_documents (transcription_id, document, speakers, fetched_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (transcription_id) DO UPDATE SET document = excluded.document, speakers = excluded.speakers, fetched_at = excluded.fetched_at`,
      )
      .run(transcriptionId, JSON.stringify(document), countSpeakers(document), new Date().toISOString());
  }

  get(transcriptionId: string): TranscriptDocument | null {
    const row = this.db
      .prepare('SELECT document FROM transcript_documents WHERE transcription_id = ?')
      .get(transcriptionId) as { document: string } | undefined;
    return row ? (JSON.parse(row.document) as TranscriptDocument) : null;
  }

  has(transcriptionId: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM transcript_documents WHERE transcription_id = ?').get(transcriptionId) !==
      undefined
    );
  }

  /** Speaker counts of the cached documents among `ids`. */
  speakerCounts(ids: string[]): Map<string, number> {
    if (ids.length === 0) return new Map();
    const rows = this.db
      .prepare(
        `SELECT transcription_id AS id, speakers FROM transcript_documents WHERE transcription_id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as Array<{ id: string; speakers: number }>;
    return new Map(rows.map((r) => [r.id, r.speakers]));
  }
}
