import { wordOperations } from '../../../../src-shared/api/dictionaries.js';
import { errors } from '../../errors.js';
import { wordBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const wordRoutes = entryRoutes({
  operations: wordOperations,
  add: (ctx, dictionaryId, items) => ctx.dictionaries.addWords(dictionaryId, items),
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteWord(dictionaryId, id),
  notFound: errors.wordNotFound,
  body: wordBody,
});
