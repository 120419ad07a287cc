import { blacklistWordOperations } from '../../../../src-shared/api/dictionaries.js';
import { replacementRules } from '../../../application/dictionaries.js';
import { replacementRuleBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const replacementRuleRoutes = entryRoutes({
  operations: blacklistWordOperations,
  entries: replacementRules,
  body: replacementRuleBody,
});
