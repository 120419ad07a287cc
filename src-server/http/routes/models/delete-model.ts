import { deleteModel as operation } from '../../../../src-shared/api/models.js';
import { deleteModel as remove } from '../../../application/models.js';
import { requireRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

/** Removes the file; a running download of the model is cancelled first. */
export const deleteModel: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    requireRole(request, 'OPERATOR', 'Deleting a speech model');
    await remove(ctx, request.params.name);
    return reply.status(204).send();
  });
