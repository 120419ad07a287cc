import type { RouteModule } from '../../api-app.js';
import { replacementRuleRoutes } from './replacement-rules.js';
import { createDictionary } from './create-dictionary.js';
import { deleteDictionary } from './delete-dictionary.js';
import { getDictionary } from './get-dictionary.js';
import { listDictionaries } from './list-dictionaries.js';
import { updateDictionary } from './update-dictionary.js';
import { wordRoutes } from './words.js';

export const dictionaryRoutes: RouteModule[] = [
  listDictionaries,
  createDictionary,
  getDictionary,
  updateDictionary,
  deleteDictionary,
  ...wordRoutes,
  ...replacementRuleRoutes,
];
