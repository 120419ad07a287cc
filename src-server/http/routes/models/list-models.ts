import { listModels as operation } from '../../../../src-shared/api/models.js';
import { listModels as list } from '../../../application/models.js';
import { callerOf, hasRole } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

export const listModels: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    return { ...(await list(ctx)), can_manage: hasRole(caller, 'OPERATOR') };
  });
