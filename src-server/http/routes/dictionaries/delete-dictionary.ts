import { deleteDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { deleteDictionary as remove } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

export const deleteDictionary: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    await remove(ctx, callerOf(request), request.params.dictionary_id);
    return reply.status(200).send();
  });
