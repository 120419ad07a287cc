import { updateDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { callerOf } from '../../auth.js';
import { findDictionary } from '../../lookups.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const updateDictionary: RouteModule = (app, ctx) =>
  app.patch(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    await findDictionary(ctx, caller, request.params.dictionary_id);
    const updated = await ctx.dictionaries.update(caller.teamId, request.params.dictionary_id, {
      name: request.body.name,
      isTemporary: request.body.is_temporary,
    });
    return dictionaryBody(ctx, updated!);
  });
