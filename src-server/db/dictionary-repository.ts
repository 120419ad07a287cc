// Dictionaries, their words and replacement rules (table `blacklist_words`, the spec's name).
import type { Selectable } from 'kysely';
import { truncateWalAfterDelete } from './database.js';
import type { BlacklistWordTable, DictionaryTable, Kdb, WordTable } from './schema.js';
import { isPostgres } from './migrations/dialect.js';
import {
  newId,
  nowIso,
  type ReplacementRuleRecord,
  type DictionaryRecord,
  type WordRecord,
} from '../domain/records.js';

export interface NewWord {
  word: string;
  reading?: string | null;
}
export interface NewReplacementRule {
  pattern: string;
  replacement: string;
}

export interface DictionaryRepository {
  list(teamId: string, page: number, pageSize: number): Promise<DictionaryRecord[]>;
  get(teamId: string, dictionaryId: string): Promise<DictionaryRecord | null>;
  /** Creates the dictionary and its words in one transaction. */
  create(teamId: string, input: { name: string; isTemporary: boolean; words: NewWord[] }): Promise<DictionaryRecord>;
  update(
    teamId: string,
    dictionaryId: string,
    patch: { name?: string; isTemporary?: boolean },
  ): Promise<DictionaryRecord | null>;
  /** Deletes the dictionary with its words and replacement rules. */
  delete(teamId: string, dictionaryId: string): Promise<boolean>;
  words(dictionaryId: string): Promise<WordRecord[]>;
  /** All or nothing. */
  addWords(dictionaryId: string, words: NewWord[]): Promise<WordRecord[]>;
  getWord(dictionaryId: string, wordId: string): Promise<WordRecord | null>;
  deleteWord(dictionaryId: string, wordId: string): Promise<boolean>;
  replacementRules(dictionaryId: string): Promise<ReplacementRuleRecord[]>;
  /** All or nothing: refused (null) when the dictionary would then hold more than `max` of them. */
  addReplacementRules(
    dictionaryId: string,
    items: NewReplacementRule[],
    max?: number,
  ): Promise<ReplacementRuleRecord[] | null>;
  countReplacementRules(dictionaryId: string): Promise<number>;
  getReplacementRule(dictionaryId: string, replacementRuleId: string): Promise<ReplacementRuleRecord | null>;
  deleteReplacementRule(dictionaryId: string, replacementRuleId: string): Promise<boolean>;
}

const toDictionary = (r: Selectable<DictionaryTable>): DictionaryRecord => ({
  dictionaryId: r.dictionary_id,
  teamId: r.team_id,
  name: r.name,
  isTemporary: r.is_temporary === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toWord = (r: Selectable<WordTable>): WordRecord => ({
  wordId: r.word_id,
  dictionaryId: r.dictionary_id,
  word: r.word,
  reading: r.reading,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toReplacementRule = (r: Selectable<BlacklistWordTable>): ReplacementRuleRecord => ({
  replacementRuleId: r.blacklist_word_id,
  dictionaryId: r.dictionary_id,
  pattern: r.pattern,
  replacement: r.replacement,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class KyselyDictionaryRepository implements DictionaryRepository {
  constructor(private readonly db: Kdb) {}

  async list(teamId: string, page: number, pageSize: number) {
    const rows = await this.db
      .selectFrom('dictionaries')
      .selectAll()
      .where('team_id', '=', teamId)
      .orderBy('rowid', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    return rows.map(toDictionary);
  }

  async get(teamId: string, dictionaryId: string) {
    const row = await this.db
      .selectFrom('dictionaries')
      .selectAll()
      .where('team_id', '=', teamId)
      .where('dictionary_id', '=', dictionaryId)
      .executeTakeFirst();
    return row ? toDictionary(row) : null;
  }

  async create(teamId: string, input: { name: string; isTemporary: boolean; words: NewWord[] }) {
    const now = nowIso();
    const id = newId();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('dictionaries')
        .values({
          dictionary_id: id,
          team_id: teamId,
          name: input.name,
          is_temporary: input.isTemporary ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await insertWords(trx, id, input.words, now);
    });
    return {
      dictionaryId: id,
      teamId,
      name: input.name,
      isTemporary: input.isTemporary,
      createdAt: now,
      updatedAt: now,
    };
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
    await this.db
      .updateTable('dictionaries')
      .set({ name: next.name, is_temporary: next.isTemporary ? 1 : 0, updated_at: next.updatedAt })
      .where('dictionary_id', '=', dictionaryId)
      .execute();
    return next;
  }

  async delete(teamId: string, dictionaryId: string) {
    // Words and replacement rules go with it through ON DELETE CASCADE.
    const result = await this.db
      .deleteFrom('dictionaries')
      .where('team_id', '=', teamId)
      .where('dictionary_id', '=', dictionaryId)
      .executeTakeFirst();
    if (result.numDeletedRows > 0n) await truncateWalAfterDelete(this.db);
    return result.numDeletedRows > 0n;
  }

  async words(dictionaryId: string) {
    const rows = await this.db
      .selectFrom('words')
      .selectAll()
      .where('dictionary_id', '=', dictionaryId)
      .orderBy('created_at')
      .orderBy('rowid')
      .execute();
    return rows.map(toWord);
  }

  async addWords(dictionaryId: string, words: NewWord[]) {
    const now = nowIso();
    const created = await this.db.transaction().execute((trx) => insertWords(trx, dictionaryId, words, now));
    await this.touch(dictionaryId, now);
    return created;
  }

  async getWord(dictionaryId: string, wordId: string) {
    const row = await this.db
      .selectFrom('words')
      .selectAll()
      .where('dictionary_id', '=', dictionaryId)
      .where('word_id', '=', wordId)
      .executeTakeFirst();
    return row ? toWord(row) : null;
  }

  async deleteWord(dictionaryId: string, wordId: string) {
    const result = await this.db
      .deleteFrom('words')
      .where('dictionary_id', '=', dictionaryId)
      .where('word_id', '=', wordId)
      .executeTakeFirst();
    const deleted = result.numDeletedRows > 0n;
    if (deleted) {
      await this.touch(dictionaryId, nowIso());
      await truncateWalAfterDelete(this.db);
    }
    return deleted;
  }

  async replacementRules(dictionaryId: string) {
    const rows = await this.db
      .selectFrom('blacklist_words')
      .selectAll()
      .where('dictionary_id', '=', dictionaryId)
      .orderBy('created_at')
      .orderBy('rowid')
      .execute();
    return rows.map(toReplacementRule);
  }

  async addReplacementRules(dictionaryId: string, items: NewReplacementRule[], max = Infinity) {
    const now = nowIso();
    const created = await this.db.transaction().execute(async (trx) => {
      // Counted inside the transaction, with the dictionary's row locked on PostgreSQL (SQLite has one writer
      // anyway), so concurrent requests cannot pass the limit together.
      if (isPostgres(trx)) {
        await trx
          .selectFrom('dictionaries')
          .select('dictionary_id')
          .where('dictionary_id', '=', dictionaryId)
          .forUpdate()
          .execute();
      }
      if ((await countReplacementRules(trx, dictionaryId)) + items.length > max) return null;
      const rows = items.map((item) => ({
        blacklist_word_id: newId(),
        dictionary_id: dictionaryId,
        pattern: item.pattern,
        replacement: item.replacement,
        created_at: now,
        updated_at: now,
      }));
      await inChunks(rows, (chunk) => trx.insertInto('blacklist_words').values(chunk).execute());
      return rows.map((r) => toReplacementRule({ ...r, rowid: 0 }));
    });
    if (created) await this.touch(dictionaryId, now);
    return created;
  }

  async countReplacementRules(dictionaryId: string) {
    return countReplacementRules(this.db, dictionaryId);
  }

  async getReplacementRule(dictionaryId: string, replacementRuleId: string) {
    const row = await this.db
      .selectFrom('blacklist_words')
      .selectAll()
      .where('dictionary_id', '=', dictionaryId)
      .where('blacklist_word_id', '=', replacementRuleId)
      .executeTakeFirst();
    return row ? toReplacementRule(row) : null;
  }

  async deleteReplacementRule(dictionaryId: string, replacementRuleId: string) {
    const result = await this.db
      .deleteFrom('blacklist_words')
      .where('dictionary_id', '=', dictionaryId)
      .where('blacklist_word_id', '=', replacementRuleId)
      .executeTakeFirst();
    const deleted = result.numDeletedRows > 0n;
    if (deleted) {
      await this.touch(dictionaryId, nowIso());
      await truncateWalAfterDelete(this.db);
    }
    return deleted;
  }

  private async touch(dictionaryId: string, now: string): Promise<void> {
    await this.db
      .updateTable('dictionaries')
      .set({ updated_at: now })
      .where('dictionary_id', '=', dictionaryId)
      .execute();
  }
}

async function countReplacementRules(db: Pick<Kdb, 'selectFrom'>, dictionaryId: string): Promise<number> {
  const row = await db
    .selectFrom('blacklist_words')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('dictionary_id', '=', dictionaryId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function insertWords(db: Kdb, dictionaryId: string, words: NewWord[], now: string): Promise<WordRecord[]> {
  const rows = words.map((w) => ({
    word_id: newId(),
    dictionary_id: dictionaryId,
    word: w.word,
    reading: w.reading ?? null,
    created_at: now,
    updated_at: now,
  }));
  await inChunks(rows, (chunk) => db.insertInto('words').values(chunk).execute());
  return rows.map((r) => toWord({ ...r, rowid: 0 }));
}

/**
 * Multi-row INSERTs of at most 500 rows (well under both dialects' bound-parameter limits), in the order
 * given: row ids, and so listing order, follow it.
 */
async function inChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await insert(rows.slice(i, i + 500));
}
