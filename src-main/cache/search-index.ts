// Full-text search over cached transcript segments, summaries and translations (FTS5).
import type { ApiSummaryResult, ApiTranslationResult } from '../../src-shared/api-types.js';
import type { SearchHit } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';
import { indexBody, makeSnippet, matchExpression } from './search-text.js';

export interface IndexedText {
  segmentId: number | null;
  start: number | null;
  text: string;
}

type Kind = SearchHit['kind'];

export class SearchIndex {
  constructor(private readonly db: CacheDb) {}

  /** Replaces what is indexed for one transcription and kind. */
  replace(transcriptionId: string, kind: Kind, entries: IndexedText[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM search_entries WHERE transcription_id = ? AND kind = ?').run(transcriptionId, kind);
      const insert = this.db.prepare(
        'INSERT INTO search_entries (transcription_id, kind, segment_id, start, text, body) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const e of entries) {
        if (e.text.trim()) insert.run(transcriptionId, kind, e.segmentId, e.start, e.text, indexBody(e.text));
      }
    })();
  }

  indexTranscript(transcriptionId: string, segments: Array<{ id: number; start: number; text: string }>): void {
    this.replace(
      transcriptionId,
      'transcript',
      segments.map((s) => ({ segmentId: s.id, start: s.start, text: s.text })),
    );
  }

  /** Anchored items are indexed with their time; the overview (or the plain text) without. */
  indexSummary(transcriptionId: string, summary: ApiSummaryResult): void {
    const anchored = [
      ...(summary.key_points ?? []),
      ...(summary.action_items ?? []),
      ...(summary.decisions ?? []),
      ...(summary.dates ?? []),
    ];
    const entries: IndexedText[] = anchored.map((item) => ({
      segmentId: item.segment_id,
      start: item.start,
      text: item.text,
    }));
    const overview = anchored.length > 0 ? summary.overview : summary.summarized_text;
    if (overview) entries.unshift({ segmentId: null, start: null, text: overview });
    this.replace(transcriptionId, 'summary', entries);
  }

  /** Every completed translation of a transcription (all target languages), replacing what was indexed. */
  indexTranslations(transcriptionId: string, translations: ApiTranslationResult[]): void {
    const entries = translations.flatMap<IndexedText>((translation) =>
      translation.segments?.length
        ? translation.segments.map((s) => ({ segmentId: s.segment_id, start: s.start, text: s.text }))
        : [{ segmentId: null, start: null, text: translation.translated_text }],
    );
    this.replace(transcriptionId, 'translation', entries);
  }

  remove(transcriptionId: string): void {
    this.db.prepare('DELETE FROM search_entries WHERE transcription_id = ?').run(transcriptionId);
  }

  search(query: string, limit = 50): SearchHit[] {
    const match = matchExpression(query);
    if (!match) return [];
    const rows = this.safely(
      () =>
        this.db
          .prepare(
            `SELECT e.transcription_id, e.kind, e.segment_id, e.start, e.text, coalesce(t.name, '') AS name
         FROM search_fts JOIN search_entries e ON e.id = search_fts.rowid
         LEFT JOIN transcriptions t ON t.id = e.transcription_id
         WHERE search_fts MATCH ? ORDER BY rank LIMIT ?`,
          )
          .all(match, limit) as Array<{
          transcription_id: string;
          kind: Kind;
          segment_id: number | null;
          start: number | null;
          text: string;
          name: string;
        }>,
    );
    return rows.map((r) => ({
      transcriptionId: r.transcription_id,
      transcriptionName: r.name,
      kind: r.kind,
      segmentId: r.segment_id,
      start: r.start,
      snippet: makeSnippet(r.text, query),
    }));
  }

  /** Transcriptions with at least one hit. */
  matchingTranscriptionIds(query: string): string[] {
    const match = matchExpression(query);
    if (!match) return [];
    return this.safely(
      () =>
        this.db
          .prepare(
            `SELECT DISTINCT e.transcription_id AS id FROM search_fts JOIN search_entries e ON e.id = search_fts.rowid WHERE search_fts MATCH ?`,
          )
          .all(match) as Array<{ id: string }>,
    ).map((r) => r.id);
  }

  /** A query FTS5 cannot parse finds nothing rather than failing the caller. */
  private safely<T>(run: () => T[]): T[] {
    try {
      return run();
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_ERROR')) return [];
      throw error;
    }
  }
}
