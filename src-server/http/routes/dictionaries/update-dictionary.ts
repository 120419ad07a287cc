import { updateDictionary as operation } from '../../../../src-shared/api/dictionaries.js';
import { updateDictionary as update } from '../../../application/dictionaries.js';
import { callerOf } from '../../auth.js';
import { dictionaryBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const updateDictionary: RouteModule = (app, ctx) =>
  app.patch(operation.path, { schema: operation.schema }, async (request) =>
    dictionaryBody(
      await update(ctx, callerOf(request), request.params.dictionary_id, {
        name: request.body.name,
        isTemporary: request.body.is_temporary,
      }),
    ),
  );
