// A team's dictionaries and their entries (words, replacement rules). Every operation is scoped to the
// caller's team: another team's dictionary answers as unknown, and so do its entries.
import { LIMITS } from '../../src-shared/limits.js';
import { isPronounceableReading } from '../../src-shared/word-reading.js';
import type { AppContext } from '../app-context.js';
import type { NewReplacementRule, NewWord } from '../db/dictionary-repository.js';
import type { ReplacementRuleRecord, Caller, DictionaryRecord, WordRecord } from '../domain/records.js';
import { errors, type AppError } from './errors.js';
import { findDictionary } from './lookups.js';

/** What the dictionary use cases reach: only these parts of the context. */
export type DictionariesContext = Pick<AppContext, 'dictionaries' | 'config'>;

/** A dictionary with all its entries, as the API shows one. */
export interface DictionaryView {
  dictionary: DictionaryRecord;
  words: WordRecord[];
  replacementRules: ReplacementRuleRecord[];
}

async function view(ctx: DictionariesContext, dictionary: DictionaryRecord): Promise<DictionaryView> {
  const [words, replacementRules] = await Promise.all([
    ctx.dictionaries.words(dictionary.dictionaryId),
    ctx.dictionaries.replacementRules(dictionary.dictionaryId),
  ]);
  return { dictionary, words, replacementRules };
}

/** One page of the caller's team's dictionaries, the configured page size long. */
export function listDictionaries(ctx: DictionariesContext, caller: Caller, page: number): Promise<DictionaryRecord[]> {
  return ctx.dictionaries.list(caller.teamId, page, ctx.config.pageSize);
}

export async function createDictionary(
  ctx: DictionariesContext,
  caller: Caller,
  input: { name: string; isTemporary: boolean; words: NewWord[] },
): Promise<DictionaryView> {
  checkReadings(input.words, (i) => `words.${i}`);
  return view(ctx, await ctx.dictionaries.create(caller.teamId, input));
}

export async function getDictionary(
  ctx: DictionariesContext,
  caller: Caller,
  dictionaryId: string,
): Promise<DictionaryView> {
  return view(ctx, await findDictionary(ctx, caller, dictionaryId));
}

export async function updateDictionary(
  ctx: DictionariesContext,
  caller: Caller,
  dictionaryId: string,
  patch: { name?: string; isTemporary?: boolean },
): Promise<DictionaryView> {
  const updated = await ctx.dictionaries.update(caller.teamId, dictionaryId, patch);
  if (!updated) throw errors.dictionaryNotFound(dictionaryId);
  return view(ctx, updated);
}

export async function deleteDictionary(ctx: DictionariesContext, caller: Caller, dictionaryId: string): Promise<void> {
  if (!(await ctx.dictionaries.delete(caller.teamId, dictionaryId))) throw errors.dictionaryNotFound(dictionaryId);
}

/** The first word whose reading cannot be pronounced, with what to tell the caller; null when all can. */
export function unpronounceableReading(
  items: readonly { word: string; reading?: string | null }[],
): { index: number; message: string } | null {
  for (const [index, item] of items.entries()) {
    if (isPronounceableReading(item.reading)) continue;
    return {
      index,
      message:
        `The reading ${JSON.stringify(item.reading)} of "${item.word}" cannot be pronounced. Write how the word ` +
        'sounds in letters or kana, e.g. "zin tricks" or "ききとり"; only spaces, hyphens and apostrophes may ' +
        'separate them.',
    };
  }
  return null;
}

/**
 * Refuses a word whose reading cannot be pronounced; `at(i)` is where item i sits in the request ("words.0").
 * Dictionaries, an upload's ad-hoc words and a live session's words all pass it.
 */
export function checkReadings(items: readonly NewWord[], at: (index: number) => string): void {
  const problem = unpronounceableReading(items);
  if (problem) throw errors.validation(problem.message, [at(problem.index), 'reading'].filter(Boolean).join('.'));
}

/** The four operations words and replacement rules share, each on a dictionary of the caller's team. */
export interface DictionaryEntries<Input, Entry> {
  /**
   * All or nothing. `at(i)`: where item i sits in the request, for errors about it ("0" in a bulk
   * request, "" for a single item).
   */
  add(
    ctx: DictionariesContext,
    caller: Caller,
    dictionaryId: string,
    items: Input[],
    at?: (index: number) => string,
  ): Promise<Entry[]>;
  get(ctx: DictionariesContext, caller: Caller, dictionaryId: string, id: string): Promise<Entry>;
  remove(ctx: DictionariesContext, caller: Caller, dictionaryId: string, id: string): Promise<void>;
}

function entries<Input, Entry>(kind: {
  add(ctx: DictionariesContext, dictionaryId: string, items: Input[], at: (index: number) => string): Promise<Entry[]>;
  get(ctx: DictionariesContext, dictionaryId: string, id: string): Promise<Entry | null>;
  remove(ctx: DictionariesContext, dictionaryId: string, id: string): Promise<boolean>;
  notFound(id: string): AppError;
}): DictionaryEntries<Input, Entry> {
  return {
    add: async (ctx, caller, dictionaryId, items, at = String) =>
      kind.add(ctx, (await findDictionary(ctx, caller, dictionaryId)).dictionaryId, items, at),
    get: async (ctx, caller, dictionaryId, id) => {
      const entry = await kind.get(ctx, (await findDictionary(ctx, caller, dictionaryId)).dictionaryId, id);
      if (!entry) throw kind.notFound(id);
      return entry;
    },
    remove: async (ctx, caller, dictionaryId, id) => {
      if (!(await kind.remove(ctx, (await findDictionary(ctx, caller, dictionaryId)).dictionaryId, id)))
        throw kind.notFound(id);
    },
  };
}

export const words = entries<NewWord, WordRecord>({
  add: (ctx, dictionaryId, items, at) => {
    checkReadings(items, at);
    return ctx.dictionaries.addWords(dictionaryId, items);
  },
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteWord(dictionaryId, id),
  notFound: errors.wordNotFound,
});

export const replacementRules = entries<NewReplacementRule, ReplacementRuleRecord>({
  add: async (ctx, dictionaryId, items) => {
    const max = LIMITS.replacementRulesPerDictionary;
    const added = await ctx.dictionaries.addReplacementRules(dictionaryId, items, max);
    if (!added)
      throw errors.tooManyReplacementRules(
        max,
        await ctx.dictionaries.countReplacementRules(dictionaryId),
        items.length,
      );
    return added;
  },
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getReplacementRule(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteReplacementRule(dictionaryId, id),
  notFound: errors.replacementRuleNotFound,
});
