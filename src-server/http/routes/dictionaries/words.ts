import { errors } from '../../errors.js';
import { wordBody } from '../../representations.js';
import { WordCreateRequest } from '../../schemas.js';
import { entryRoutes } from './dictionary-entries.js';

export const wordRoutes = entryRoutes({
  segment: 'words',
  idParam: 'word_id',
  label: 'word',
  input: WordCreateRequest,
  responseRef: 'Word',
  add: (ctx, dictionaryId, items) => ctx.dictionaries.addWords(dictionaryId, items),
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteWord(dictionaryId, id),
  notFound: errors.wordNotFound,
  body: wordBody,
});
