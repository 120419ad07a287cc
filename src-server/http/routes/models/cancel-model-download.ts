import { cancelModelDownload as operation } from '../../../../src-shared/api/models.js';
import { requireRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';
import { modelErrors, withModelErrors } from './model-errors.js';

/** Answers once the download has stopped and its partial file is gone. */
export const cancelModelDownload: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    requireRole(request, 'OPERATOR', 'Cancelling a speech model download');
    const entry = await withModelErrors(() => ctx.models.get(request.params.name));
    if (!(await ctx.models.cancelDownload(entry.name))) throw modelErrors.downloadNotFound(entry.name);
    return reply.status(204).send();
  });
