import { downloadModel as operation } from '../../../../src-shared/api/models.js';
import { startModelDownload } from '../../../application/models.js';
import { requireRole } from '../../auth.js';
import { baseUrl } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

/** 202 with the status URL; a download already running for this model answers the same. */
export const downloadModel: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request, reply) => {
    requireRole(request, 'OPERATOR', 'Downloading a speech model');
    const started = await startModelDownload(ctx, request.params.name);
    return reply.status(202).send({
      model: started.model,
      is_async: true as const,
      status_url: `${baseUrl(ctx, request)}/api/v1/models/${encodeURIComponent(started.model)}/download`,
    });
  });
