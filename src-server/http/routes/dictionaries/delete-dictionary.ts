import { deleteDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import type { RouteModule } from '../../api-app.js';

export const deleteDictionary: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    const deleted = await ctx.dictionaries.delete(callerOf(request).teamId, request.params.dictionary_id);
    if (!deleted) throw errors.dictionaryNotFound(request.params.dictionary_id);
    return reply.status(200).send();
  });
