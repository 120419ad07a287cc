import { getModelDownload as operation } from '../../../../src-shared/api/models.js';
import { getModelDownload as get } from '../../../application/models.js';
import type { RouteModule } from '../../api-app.js';

export const getModelDownload: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) => get(ctx, request.params.name));
