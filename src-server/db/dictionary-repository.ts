// Dictionaries, their words and blacklist (forced-replacement) words.
import type { Db } from './database.js';
import { newId, nowIso, type BlacklistWordRecord, type DictionaryRecord, type WordRecord } from '../domain/records.js';

export interface NewWord {
  word: string;
  reading?: string | null;
}
export interface NewBlacklistWord {
  pattern: string;
  replacement: string;
}

export interface DictionaryRepository {
  list(teamId: string, page: number, pageSize: number): Promise<DictionaryRecord[]>;
  get(teamId: string, dictionaryId: string): Promise<DictionaryRecord | null>;
  /** Creates the dictionary and its words in one transaction. */
  create(teamId: string, input: { name: string; isTemporary: boolean; words: NewWord[] }): Promise<DictionaryRecord>;
  update(teamId: string, dictionaryId: string, patch: { name?: string; isTemporary?: boolean }): Promise<DictionaryRecord | null>;
  /** Deletes the dictionary with its words and blacklist words. */
  delete(teamId: string, dictionaryId: string): Promise<boolean>;
  words(dictionaryId: string): Promise<WordRecord[]>;
  /** All or nothing. */
  addWords(dictionaryId: string, words: NewWord[]): Promise<WordRecord[]>;
  getWord(dictionaryId: string, wordId: string): Promise<WordRecord | null>;
  deleteWord(dictionaryId: string, wordId: string): Promise<boolean>;
  blacklistWords(dictionaryId: string): Promise<BlacklistWordRecord[]>;
  /** All or nothing: refused (null) when the dictionary would then hold more than `max` of them. */
  addBlacklistWords(dictionaryId: string, items: NewBlacklistWord[], max?: number): Promise<BlacklistWordRecord[] | null>;
  countBlacklistWords(dictionaryId: string): Promise<number>;
  getBlacklistWord(dictionaryId: string, blacklistWordId: string): Promise<BlacklistWordRecord | null>;
  deleteBlacklistWord(dictionaryId: string, blacklistWordId: string): Promise<boolean>;
}

interface DictionaryRow {
  dictionary_id: string;
  team_id: string;
  name: string;
  is_temporary: number;
  created_at: string;
  updated_at: string;
}
interface WordRow {
  word_id: string;
  dictionary_id: string;
  word: string;
  reading: string | null;
  created_at: string;
  updated_at: string;
}
interface BlacklistRow {
  blacklist_word_id: string;
  dictionary_id: string;
  pattern: string;
  replacement: string;
  created_at: string;
  updated_at: string;
}

const toDictionary = (r: DictionaryRow): DictionaryRecord => ({
  dictionaryId: r.dictionary_id,
  teamId: r.team_id,
  name: r.name,
  isTemporary: r.is_temporary === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toWord = (r: WordRow): WordRecord => ({
  wordId: r.word_id,
  dictionaryId: r.dictionary_id,
  word: r.word,
  reading: r.reading,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toBlacklistWord = (r: BlacklistRow): BlacklistWordRecord => ({
  blacklistWordId: r.blacklist_word_id,
  dictionaryId: r.dictionary_id,
  pattern: r.pattern,
  replacement: r.replacement,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class SqliteDictionaryRepository implements DictionaryRepository {
  private readonly insertWord;
  private readonly insertBlacklistWord;

  constructor(private readonly db: Db) {
    this.insertWord = db.prepare(
      'INSERT INTO words (word_id, dictionary_id, word, reading, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertBlacklistWord = db.prepare(
      'INSERT INTO blacklist_words (blacklist_word_id, dictionary_id, pattern, replacement, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  async list(teamId: string, page: number, pageSize: number) {
    const rows = this.db
      .prepare('SELECT * FROM dictionaries WHERE team_id = ? ORDER BY rowid DESC LIMIT ? OFFSET ?')
      .all(teamId, pageSize, (page - 1) * pageSize) as DictionaryRow[];
    return rows.map(toDictionary);
  }

  async get(teamId: string, dictionaryId: string) {
    const row = this.db
      .prepare('SELECT * FROM dictionaries WHERE team_id = ? AND dictionary_id = ?')
      .get(teamId, dictionaryId) as DictionaryRow | undefined;
    return row ? toDictionary(row) : null;
  }

  async create(teamId: string, input: { name: string; isTemporary: boolean; words: NewWord[] }) {
    const now = nowIso();
    const id = newId();
    this.db.transaction(() => {
      this.db
        .prepare('INSERT INTO dictionaries (dictionary_id, team_id, name, is_temporary, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, teamId, input.name, input.isTemporary ? 1 : 0, now, now);
      this.insertWordsSync(id, input.words, now);
    })();
    return { dictionaryId: id, teamId, name: input.name, isTemporary: input.isTemporary, createdAt: now, updatedAt: now };
  }

  async update(teamId: string, dictionaryId: string, patch: { name?: string; isTemporary?: boolean }) {
    const current = await this.get(teamId, dictionaryId);
    if (!current) return null;
    const next = {
      ...current,
      name: patch.name ?? current.name,
      isTemporary: patch.isTemporary ?? current.isTemporary,
      updatedAt: nowIso(),
    };
    this.db
      .prepare('UPDATE dictionaries SET name = ?, is_temporary = ?, updated_at = ? WHERE dictionary_id = ?')
      .run(next.name, next.isTemporary ? 1 : 0, next.updatedAt, dictionaryId);
    return next;
  }

  async delete(teamId: string, dictionaryId: string) {
    // Words and blacklist words go with it through ON DELETE CASCADE.
    return this.db.prepare('DELETE FROM dictionaries WHERE team_id = ? AND dictionary_id = ?').run(teamId, dictionaryId).changes > 0;
  }

  async words(dictionaryId: string) {
    const rows = this.db
      .prepare('SELECT * FROM words WHERE dictionary_id = ? ORDER BY created_at, rowid')
      .all(dictionaryId) as WordRow[];
    return rows.map(toWord);
  }

  async addWords(dictionaryId: string, words: NewWord[]) {
    const now = nowIso();
    const created = this.db.transaction(() => this.insertWordsSync(dictionaryId, words, now))();
    this.touchSync(dictionaryId, now);
    return created;
  }

  async getWord(dictionaryId: string, wordId: string) {
    const row = this.db.prepare('SELECT * FROM words WHERE dictionary_id = ? AND word_id = ?').get(dictionaryId, wordId) as
      | WordRow
      | undefined;
    return row ? toWord(row) : null;
  }

  async deleteWord(dictionaryId: string, wordId: string) {
    const deleted = this.db.prepare('DELETE FROM words WHERE dictionary_id = ? AND word_id = ?').run(dictionaryId, wordId).changes > 0;
    if (deleted) this.touchSync(dictionaryId, nowIso());
    return deleted;
  }

  async blacklistWords(dictionaryId: string) {
    const rows = this.db
      .prepare('SELECT * FROM blacklist_words WHERE dictionary_id = ? ORDER BY created_at, rowid')
      .all(dictionaryId) as BlacklistRow[];
    return rows.map(toBlacklistWord);
  }

  async addBlacklistWords(dictionaryId: string, items: NewBlacklistWord[], max = Infinity) {
    const now = nowIso();
    // Counted inside the transaction, so concurrent requests cannot pass the limit together.
    const created = this.db.transaction(() => {
      if (this.countBlacklistWordsSync(dictionaryId) + items.length > max) return null;
      return items.map((item) => {
        const id = newId();
        this.insertBlacklistWord.run(id, dictionaryId, item.pattern, item.replacement, now, now);
        return { blacklistWordId: id, dictionaryId, pattern: item.pattern, replacement: item.replacement, createdAt: now, updatedAt: now };
      });
    })();
    if (created) this.touchSync(dictionaryId, now);
    return created;
  }

  async countBlacklistWords(dictionaryId: string) {
    return this.countBlacklistWordsSync(dictionaryId);
  }

  private countBlacklistWordsSync(dictionaryId: string): number {
    return (this.db.prepare('SELECT count(*) AS n FROM blacklist_words WHERE dictionary_id = ?').get(dictionaryId) as { n: number }).n;
  }

  async getBlacklistWord(dictionaryId: string, blacklistWordId: string) {
    const row = this.db
      .prepare('SELECT * FROM blacklist_words WHERE dictionary_id = ? AND blacklist_word_id = ?')
      .get(dictionaryId, blacklistWordId) as BlacklistRow | undefined;
    return row ? toBlacklistWord(row) : null;
  }

  async deleteBlacklistWord(dictionaryId: string, blacklistWordId: string) {
    const deleted =
      this.db.prepare('DELETE FROM blacklist_words WHERE dictionary_id = ? AND blacklist_word_id = ?').run(dictionaryId, blacklistWordId)
        .changes > 0;
    if (deleted) this.touchSync(dictionaryId, nowIso());
    return deleted;
  }

  private insertWordsSync(dictionaryId: string, words: NewWord[], now: string): WordRecord[] {
    return words.map((w) => {
      const id = newId();
      const reading = w.reading ?? null;
      this.insertWord.run(id, dictionaryId, w.word, reading, now, now);
      return { wordId: id, dictionaryId, word: w.word, reading, createdAt: now, updatedAt: now };
    });
  }

  private touchSync(dictionaryId: string, now: string): void {
    this.db.prepare('UPDATE dictionaries SET updated_at = ? WHERE dictionary_id = ?').run(now, dictionaryId);
  }
}
