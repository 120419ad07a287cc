import { listDictionaries as operation } from '../../../../src-shared/api/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryListItemBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const listDictionaries: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) => {
    const rows = await ctx.dictionaries.list(callerOf(request).teamId, request.query.page ?? 1, ctx.config.pageSize);
    return rows.map(dictionaryListItemBody);
  });
