import { blacklistWordOperations } from '../../../../src-shared/api/dictionaries.js';
import { blacklistWords } from '../../../application/dictionaries.js';
import { blacklistWordBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const blacklistWordRoutes = entryRoutes({
  operations: blacklistWordOperations,
  entries: blacklistWords,
  body: blacklistWordBody,
});
