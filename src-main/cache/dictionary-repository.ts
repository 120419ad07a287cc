// Dictionaries, their words and replacement rules (table `blacklist_words`), as last seen on the server.
import type { ApiDictionary, ApiDictionaryListItem } from '../../src-shared/api-types.js';
import type { DictionaryDetail, DictionarySummary } from '../../src-shared/ipc-contract.js';
import type { CacheDb } from './database.js';

interface DictionaryRow {
  id: string;
  name: string;
  is_temporary: number;
  created_at: string;
  updated_at: string;
  detail_at: string | null;
}

const summaryOf = (r: DictionaryRow): DictionarySummary => ({
  id: r.id,
  name: r.name,
  isTemporary: r.is_temporary === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class DictionaryRepository {
  constructor(private readonly db: CacheDb) {}

  /**
   * Records the server's list. `complete`: the list is every dictionary of the team, so cached ones
   * missing from it were deleted elsewhere and go too.
   */
  putList(items: ApiDictionaryListItem[], complete: boolean): void {
    this.db.transaction(() => {
      const upsert = this.db.prepare(
        `INSERT INTO dictionaries (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, created_at = excluded.created_at, updated_at = excluded.updated_at`,
      );
      for (const d of items) upsert.run(d.dictionary_id, d.name, d.created_at, d.updated_at);
      if (complete) {
        this.db
          .prepare(`DELETE FROM dictionaries WHERE id NOT IN (SELECT value FROM json_each(?))`)
          .run(JSON.stringify(items.map((d) => d.dictionary_id)));
      }
    })();
  }

  /** Records a full dictionary with its words and replacement rules, replacing what was cached. */
  putDetail(d: ApiDictionary): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO dictionaries (id, name, is_temporary, created_at, updated_at, detail_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (id) DO UPDATE SET name = excluded.name, is_temporary = excluded.is_temporary, created_at = excluded.created_at,
             updated_at = excluded.updated_at, detail_at = excluded.detail_at`,
        )
        .run(d.dictionary_id, d.name, d.is_temporary ? 1 : 0, d.created_at, d.updated_at, d.updated_at);
      this.db.prepare('DELETE FROM dictionary_words WHERE dictionary_id = ?').run(d.dictionary_id);
      this.db.prepare('DELETE FROM blacklist_words WHERE dictionary_id = ?').run(d.dictionary_id);
      const word = this.db.prepare(
        'INSERT OR REPLACE INTO dictionary_words (id, dictionary_id, word, reading, position) VALUES (?, ?, ?, ?, ?)',
      );
      d.words.forEach((w, i) => word.run(w.word_id, d.dictionary_id, w.word, w.reading ?? null, i));
      const rules = this.db.prepare(
        'INSERT OR REPLACE INTO blacklist_words (id, dictionary_id, pattern, replacement, position) VALUES (?, ?, ?, ?, ?)',
      );
      (d.blacklist_words ?? []).forEach((b, i) =>
        rules.run(b.blacklist_word_id, d.dictionary_id, b.pattern, b.replacement, i),
      );
    })();
  }

  list(): DictionarySummary[] {
    return (
      this.db.prepare('SELECT * FROM dictionaries ORDER BY created_at DESC, id DESC').all() as DictionaryRow[]
    ).map(summaryOf);
  }

  /** True when the cached words are older than the server's `updated_at` (or were never fetched). */
  needsDetail(item: ApiDictionaryListItem): boolean {
    const row = this.db.prepare('SELECT detail_at FROM dictionaries WHERE id = ?').get(item.dictionary_id) as
      { detail_at: string | null } | undefined;
    return !row || row.detail_at !== item.updated_at;
  }

  /** Null when unknown, or when only the list entry is cached (no words yet). */
  get(id: string): DictionaryDetail | null {
    const row = this.db.prepare('SELECT * FROM dictionaries WHERE id = ?').get(id) as DictionaryRow | undefined;
    if (!row || row.detail_at === null) return null;
    const words = this.db
      .prepare('SELECT id, word, reading FROM dictionary_words WHERE dictionary_id = ? ORDER BY position')
      .all(id) as Array<{
      id: string;
      word: string;
      reading: string | null;
    }>;
    const replacementRules = this.db
      .prepare('SELECT id, pattern, replacement FROM blacklist_words WHERE dictionary_id = ? ORDER BY position')
      .all(id) as Array<{ id: string; pattern: string; replacement: string }>;
    return { ...summaryOf(row), words, replacementRules };
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM dictionaries WHERE id = ?').run(id);
  }
}
