import { listModels as operation } from '../../../../src-shared/api/models.js';
import { callerOf, hasRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';
import { servingModels } from './serving.js';

export const listModels: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    return { models: ctx.models.list(), serving: await servingModels(ctx), can_manage: hasRole(caller, 'OPERATOR') };
  });
