import { blacklistWordOperations } from '../../../../src-shared/api/dictionaries.js';
import { errors } from '../../errors.js';
import { blacklistWordBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const blacklistWordRoutes = entryRoutes({
  operations: blacklistWordOperations,
  add: (ctx, dictionaryId, items) => ctx.dictionaries.addBlacklistWords(dictionaryId, items),
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getBlacklistWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteBlacklistWord(dictionaryId, id),
  notFound: errors.blacklistWordNotFound,
  body: blacklistWordBody,
});
