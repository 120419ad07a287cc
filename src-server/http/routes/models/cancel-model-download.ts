import { cancelModelDownload as operation } from '../../../../src-shared/api/models.js';
import { cancelModelDownload as cancel } from '../../../application/models.js';
import { requireRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

/** Answers once the download has stopped and its partial file is gone. */
export const cancelModelDownload: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    requireRole(request, 'OPERATOR', 'Cancelling a speech model download');
    await cancel(ctx, request.params.name);
    return reply.status(204).send();
  });
