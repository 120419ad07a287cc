import { getDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { callerOf } from '../../auth.js';
import { findDictionary } from '../../lookups.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const getDictionary: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    dictionaryBody(ctx, await findDictionary(ctx, callerOf(request), request.params.dictionary_id)),
  );
