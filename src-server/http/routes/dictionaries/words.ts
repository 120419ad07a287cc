import { wordOperations } from '../../../../src-shared/api/dictionaries.js';
import { words } from '../../../application/dictionaries.js';
import { wordBody } from '../../representations.js';
import { entryRoutes } from './dictionary-entries.js';

export const wordRoutes = entryRoutes({ operations: wordOperations, entries: words, body: wordBody });
