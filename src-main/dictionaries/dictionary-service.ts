// Dictionaries: read from the server into the cache (readable offline); changed only online.
// Changes are refused offline rather than queued: they create server ids the app would have to
// invent and remap (docs/decisions/0007-offline-edits.md).
import type { ApiDictionary } from '../../src-shared/api-types.js';
import {
  IMPORT_PROBLEMS_LISTED,
  type DictionaryDetail,
  type DictionaryImport,
  type DictionarySummary,
  type IpcError,
} from '../../src-shared/ipc-contract.js';
import { ApiError, changeOnline, isOfflineError } from '../api-client/api-errors.js';
import type { ApiClient } from '../api-client/api-client.js';
import type { CacheStore } from '../cache/cache-store.js';
import { LIMITS } from '../../src-shared/limits.js';
import { isPronounceableReading } from '../../src-shared/word-reading.js';
import { AppFailure, appError } from '../app-failure.js';
import { parseReplacementRules, parseWords, type ImportKind, type ParsedImport } from './dictionary-import.js';

/**
 * Why the rest of an import was not sent: the server's answer, or that it cannot be reached (not
 * 'dictionary-offline', which says nothing was changed).
 */
function importFailure(error: unknown): IpcError {
  if (error instanceof AppFailure) return error.error;
  return appError({
    code: 'internal',
    reason: 'internal',
    detail: error instanceof Error ? error.message : String(error),
  });
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What makes two words the same entry (decision 0102): the word and the reading (absent = empty), each
 * trimmed, NFKC-normalized and case-folded. The same word with another reading is another pronunciation.
 */
export function sameWordKey(entry: { word: string; reading?: string | null }): string {
  const fold = (text: string) => text.normalize('NFKC').trim().toLowerCase();
  return `${fold(entry.word)}\u0000${fold(entry.reading ?? '')}`;
}

/**
 * For each of `words`, the spelling of the entry it repeats (one in `existing`, or an earlier one of `words`),
 * or null when it is new (decision 0102).
 */
function repeatsOf(
  existing: Array<{ word: string; reading?: string | null }>,
  words: Array<{ word: string; reading?: string }>,
): Array<string | null> {
  const seen = new Map(existing.map((entry) => [sameWordKey(entry), entry.word]));
  return words.map((entry) => {
    const key = sameWordKey(entry);
    const there = seen.get(key);
    if (there !== undefined) return there;
    seen.set(key, entry.word);
    return null;
  });
}

export class DictionaryService {
  constructor(
    private readonly store: CacheStore,
    private readonly client: ApiClient,
  ) {}

  async list(): Promise<DictionarySummary[]> {
    try {
      const items = await this.client.listAllDictionaries();
      this.store.dictionaries.putList(items, true);
      // List items omit is_temporary and the words: read those of new or changed dictionaries.
      const stale = items.filter((d) => this.store.dictionaries.needsDetail(d));
      for (let i = 0; i < stale.length; i += 4) {
        await Promise.all(stale.slice(i, i + 4).map((d) => this.refresh(d.dictionary_id).catch(() => null)));
      }
    } catch (error) {
      if (!isOfflineError(error)) throw error;
    }
    return this.store.dictionaries.list();
  }

  async get(id: string): Promise<DictionaryDetail> {
    try {
      return await this.refresh(id);
    } catch (error) {
      if (error instanceof ApiError && error.error.code === 'not-found') this.store.dictionaries.delete(id);
      if (!(error instanceof ApiError && error.error.code === 'offline')) throw error;
      const cached = this.store.dictionaries.get(id);
      if (cached) return cached;
      throw new AppFailure({
        code: 'offline',
        reason: 'dictionary-unreachable',
      });
    }
  }

  create(name: string, words: Array<{ word: string; reading?: string }> = []): Promise<DictionaryDetail> {
    return this.change(async () => {
      const created = await this.client.createDictionary({
        name,
        ...(words.length ? { words: words.slice(0, LIMITS.bulkItems) } : {}),
      });
      for (const part of chunks(words.slice(LIMITS.bulkItems), LIMITS.bulkItems))
        await this.client.addWords(created.dictionary_id, part);
      return words.length > LIMITS.bulkItems ? this.refresh(created.dictionary_id) : this.cache(created);
    });
  }

  rename(id: string, name: string): Promise<DictionaryDetail> {
    return this.change(async () => this.cache(await this.client.updateDictionary(id, { name })));
  }

  delete(id: string): Promise<void> {
    return this.change(async () => {
      try {
        await this.client.deleteDictionary(id);
      } catch (error) {
        if (!(error instanceof ApiError && error.error.code === 'not-found')) throw error;
      }
      this.store.dictionaries.delete(id);
    });
  }

  /**
   * Adds words the user typed. A word already in the dictionary with the same reading (or twice in
   * `words`) is refused before anything is sent (decision 0102); the server itself accepts duplicates.
   */
  addWords(id: string, words: Array<{ word: string; reading?: string }>): Promise<DictionaryDetail> {
    // A reading nothing can sound out is refused here, in the user's words, not by the server's English.
    const unpronounceable = words.findIndex((entry) => !isPronounceableReading(entry.reading));
    if (unpronounceable !== -1)
      return Promise.reject(
        new AppFailure({
          code: 'validation',
          reason: 'reading-unpronounceable',
          field: `words.${unpronounceable}.reading`,
        }),
      );
    return this.change(async () => {
      const repeats = repeatsOf((await this.refresh(id)).words, words);
      const first = repeats.findIndex((there) => there !== null);
      if (first !== -1)
        throw new AppFailure({
          code: 'conflict',
          reason: 'word-already-in-dictionary',
          params: { word: repeats[first]!.trim() },
          field: `words.${first}.word`,
        });
      return this.sendWords(id, words);
    });
  }

  removeWord(id: string, wordId: string): Promise<DictionaryDetail> {
    return this.change(async () => {
      await this.client.deleteWord(id, wordId);
      return this.refresh(id);
    });
  }

  addReplacementRules(
    id: string,
    replacementRules: Array<{ pattern: string; replacement: string }>,
  ): Promise<DictionaryDetail> {
    return this.change(async () => {
      for (const part of chunks(replacementRules, LIMITS.bulkItems)) await this.client.addReplacementRules(id, part);
      return this.refresh(id);
    });
  }

  removeReplacementRule(id: string, replacementRuleId: string): Promise<DictionaryDetail> {
    return this.change(async () => {
      await this.client.deleteReplacementRule(id, replacementRuleId);
      return this.refresh(id);
    });
  }

  /**
   * Checks every line first: with a bad line nothing is sent, and the bad lines come back by number and
   * problem, unless `skipBadLines` (the user saw them) leaves them out. The good lines go in requests of at
   * most LIMITS.bulkItems, in the order of the text; when one fails after others went through, the answer
   * says which lines the server has and which it has not (docs/decisions/0103-bulk-import-lines.md).
   */
  import(id: string, text: string, kind: ImportKind, skipBadLines = false): Promise<DictionaryImport> {
    return kind === 'words'
      ? this.sendLines(
          id,
          parseWords(text),
          skipBadLines,
          (part) => this.client.addWords(id, part),
          // Words already in the dictionary, or earlier in the paste, are left out (decision 0102).
          async (entries) => {
            const repeats = repeatsOf(
              (await this.refresh(id)).words,
              entries.map((line) => line.entry),
            );
            return entries.filter((_, i) => repeats[i] === null);
          },
        )
      : this.sendLines(id, parseReplacementRules(text), skipBadLines, (part) =>
          this.client.addReplacementRules(id, part),
        );
  }

  private async sendLines<E>(
    id: string,
    { entries, problems }: ParsedImport<E>,
    skipBadLines: boolean,
    send: (part: E[]) => Promise<unknown>,
    /** The entries still to send once those already there are left out; all of them when not given. */
    unsent: (entries: ParsedImport<E>['entries']) => Promise<ParsedImport<E>['entries']> = async (all) => all,
  ): Promise<DictionaryImport> {
    if (problems.length > 0 && (!skipBadLines || entries.length === 0)) {
      return {
        outcome: 'checked',
        problems: problems.slice(0, IMPORT_PROBLEMS_LISTED),
        badLines: problems.length,
        goodLines: entries.length,
      };
    }
    return this.change(async () => {
      const fresh = await unsent(entries);
      let sent = 0;
      for (const part of chunks(fresh, LIMITS.bulkItems)) {
        try {
          await send(part.map((line) => line.entry));
        } catch (error) {
          // Nothing went through: the failure is the whole answer, as for any change.
          if (sent === 0) throw error;
          return {
            outcome: 'partly-imported',
            detail: await this.refresh(id).catch(() => this.store.dictionaries.get(id) ?? null),
            importedLines: sent,
            lastImportedLine: fresh[sent - 1]!.line,
            firstNotImportedLine: part[0]!.line,
            error: importFailure(error),
          };
        }
        sent += part.length;
      }
      return {
        outcome: 'imported',
        detail: await this.refresh(id),
        importedLines: sent,
        skippedLines: problems.length,
        duplicateLines: entries.length - fresh.length,
      };
    });
  }

  private async sendWords(id: string, words: Array<{ word: string; reading?: string }>): Promise<DictionaryDetail> {
    for (const part of chunks(words, LIMITS.bulkItems)) await this.client.addWords(id, part);
    return this.refresh(id);
  }

  private async refresh(id: string): Promise<DictionaryDetail> {
    return this.cache(await this.client.getDictionary(id));
  }

  private cache(dictionary: ApiDictionary): DictionaryDetail {
    this.store.dictionaries.putDetail(dictionary);
    return this.store.dictionaries.get(dictionary.dictionary_id)!;
  }

  private change<T>(run: () => Promise<T>): Promise<T> {
    return changeOnline('dictionary-offline', run);
  }
}
