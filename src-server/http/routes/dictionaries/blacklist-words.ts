import { errors } from '../../errors.js';
import { blacklistWordBody } from '../../representations.js';
import { BlacklistWordCreateRequest } from '../../schemas.js';
import { entryRoutes } from './dictionary-entries.js';

export const blacklistWordRoutes = entryRoutes({
  segment: 'blacklist_words',
  idParam: 'blacklist_word_id',
  label: 'blacklist (forced-replacement) word',
  input: BlacklistWordCreateRequest,
  responseRef: 'BlacklistWord',
  add: (ctx, dictionaryId, items) => ctx.dictionaries.addBlacklistWords(dictionaryId, items),
  get: (ctx, dictionaryId, id) => ctx.dictionaries.getBlacklistWord(dictionaryId, id),
  remove: (ctx, dictionaryId, id) => ctx.dictionaries.deleteBlacklistWord(dictionaryId, id),
  notFound: errors.blacklistWordNotFound,
  body: blacklistWordBody,
});
