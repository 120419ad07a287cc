// The dictionary use cases on their own: the repository is the boundary this test is not about; what is
// tested is team scoping (another team's dictionary and its entries answer as unknown), not-found and
// the replacement rule limit.
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src-shared/limits.js';
import type { AppContext } from '../../../../src-server/app-context.js';
import {
  replacementRules,
  deleteDictionary,
  getDictionary,
  listDictionaries,
  updateDictionary,
  words,
} from '../../../../src-server/application/dictionaries.js';
import { AppError } from '../../../../src-server/application/errors.js';

const alice = { teamId: 'acme', userId: 'alice' } as never;
const bob = { teamId: 'globex', userId: 'bob' } as never;

function context(ruleCount = 0) {
  const dictionary = { dictionaryId: 'd1', teamId: 'acme', name: 'terms', isTemporary: false };
  const touched: string[] = [];
  const mine = (teamId: string, id: string) => teamId === 'acme' && id === 'd1';
  const ctx = {
    config: { pageSize: 5 },
    dictionaries: {
      list: (teamId: string, page: number, size: number) =>
        Promise.resolve([{ ...dictionary, teamId, name: `${page}/${size}` }]),
      get: (teamId: string, id: string) => Promise.resolve(mine(teamId, id) ? dictionary : null),
      update: (teamId: string, id: string, patch: { name?: string }) =>
        Promise.resolve(mine(teamId, id) ? { ...dictionary, ...patch } : null),
      delete: (teamId: string, id: string) => Promise.resolve(mine(teamId, id)),
      words: () => Promise.resolve([{ wordId: 'w1' }]),
      replacementRules: () => Promise.resolve([]),
      addWords: (id: string, items: unknown[]) => {
        touched.push(`add ${id}`);
        return Promise.resolve(items.map(() => ({ wordId: 'w2' })));
      },
      getWord: (_: string, id: string) => Promise.resolve(id === 'w1' ? { wordId: 'w1' } : null),
      deleteWord: (_: string, id: string) => Promise.resolve(id === 'w1' && touched.push(`delete ${id}`) > 0),
      addReplacementRules: (_: string, items: unknown[], max: number) =>
        Promise.resolve(ruleCount + items.length > max ? null : []),
      countReplacementRules: () => Promise.resolve(ruleCount),
    },
  } as unknown as AppContext;
  return { ctx, touched };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('dictionaries', () => {
  it("lists the caller's team's page, and reads a dictionary with its entries", async () => {
    const { ctx } = context();
    expect(await listDictionaries(ctx, bob, 3)).toEqual([expect.objectContaining({ teamId: 'globex', name: '3/5' })]);
    expect(await getDictionary(ctx, alice, 'd1')).toMatchObject({
      dictionary: { dictionaryId: 'd1' },
      words: [{ wordId: 'w1' }],
      replacementRules: [],
    });
    expect(await updateDictionary(ctx, alice, 'd1', { name: 'renamed' })).toMatchObject({
      dictionary: { name: 'renamed' },
    });
  });

  it("answers another team's dictionary as unknown for every operation", async () => {
    const { ctx, touched } = context();
    for (const run of [
      getDictionary(ctx, bob, 'd1'),
      updateDictionary(ctx, bob, 'd1', { name: 'theirs' }),
      deleteDictionary(ctx, bob, 'd1'),
      words.add(ctx, bob, 'd1', [{ word: 'x' }]),
      words.get(ctx, bob, 'd1', 'w1'),
      words.remove(ctx, bob, 'd1', 'w1'),
      replacementRules.add(ctx, bob, 'd1', [{ pattern: 'a', replacement: 'b' }]),
    ]) {
      expect(await refusal(run)).toMatchObject({ code: 'DICTIONARY_NOT_FOUND' });
    }
    expect(touched).toEqual([]);
  });

  it('answers an unknown entry with its own closed error, and removes a known one', async () => {
    const { ctx, touched } = context();
    expect(await refusal(words.get(ctx, alice, 'd1', 'w9'))).toMatchObject({ code: 'WORD_NOT_FOUND' });
    expect(await refusal(words.remove(ctx, alice, 'd1', 'w9'))).toMatchObject({ code: 'WORD_NOT_FOUND' });
    await words.remove(ctx, alice, 'd1', 'w1');
    expect(touched).toEqual(['delete w1']);
  });

  it('refuses replacement rules past the limit per dictionary', async () => {
    const { ctx } = context(LIMITS.replacementRulesPerDictionary);
    expect(await refusal(replacementRules.add(ctx, alice, 'd1', [{ pattern: 'a', replacement: 'b' }]))).toMatchObject({
      code: 'TOO_MANY_BLACKLIST_WORDS',
    });
  });
});
