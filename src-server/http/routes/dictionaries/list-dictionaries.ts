import { listDictionaries as operation } from '../../../../src-shared/api/dictionaries.js';
import { listDictionaries as list } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryListItemBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const listDictionaries: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    (await list(ctx, callerOf(request), request.query.page ?? 1)).map(dictionaryListItemBody),
  );
