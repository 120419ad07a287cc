import { getDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { getDictionary as get } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const getDictionary: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    dictionaryBody(await get(ctx, callerOf(request), request.params.dictionary_id)),
  );
