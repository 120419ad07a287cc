import { getModelDownload as operation } from '../../../../src-shared/api/models.js';
import type { RouteModule } from '../../api-app.js';
import { modelErrors, withModelErrors } from './model-errors.js';

export const getModelDownload: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) => {
    const entry = await withModelErrors(() => ctx.models.get(request.params.name));
    const download = ctx.models.getDownload(entry.name);
    if (!download) throw modelErrors.downloadNotFound(entry.name);
    return download;
  });
