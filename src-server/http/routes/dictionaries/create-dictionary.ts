import { createDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const createDictionary: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    const { name, words = [], is_temporary = false } = request.body;
    const dictionary = await ctx.dictionaries.create(callerOf(request).teamId, { name, isTemporary: is_temporary, words });
    return dictionaryBody(ctx, dictionary);
  });
