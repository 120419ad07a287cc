import { createDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { createDictionary as create } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const createDictionary: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    const { name, words = [], is_temporary = false } = request.body;
    return dictionaryBody(await create(ctx, callerOf(request), { name, isTemporary: is_temporary, words }));
  });
