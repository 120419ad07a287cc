import { blacklistWordOperations } from '../../../../src-shared/api/dictionaries.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import { errors } from '../../errors.js';
import { blacklistWordBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const blacklistWordRoutes = entryRoutes({
  operations: blacklistWordOperations,
  add: async (ctx, dictionaryId, items) => {
    const max = LIMITS.blacklistWordsPerDictionary;
    const added = await ctx.dictionaries.addBlacklistWords(dictionaryId, items, max);
    if (!added) throw errors.tooManyBlacklistWords(max, await ctx.dictionaries.countBlacklistWords(dictionaryId), items.length);
    return added;
  },
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getBlacklistWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteBlacklistWord(dictionaryId, id),
  notFound: errors.blacklistWordNotFound,
  body: blacklistWordBody,
});
