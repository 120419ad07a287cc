import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { findDictionary } from '../../lookups.js';
import { dictionaryBody } from '../../representations.js';
import { DictionaryName, errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { DictionaryParams } from './get-dictionary.js';

export const updateDictionary: RouteModule = (app, ctx) =>
  app.patch(
    '/api/v1/dictionaries/:dictionary_id',
    {
      schema: {
        summary: 'Rename a dictionary or change is_temporary',
        tags: ['dictionaries'],
        params: DictionaryParams,
        body: Type.Object(
          { name: Type.Optional(DictionaryName), is_temporary: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Dictionary'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await findDictionary(ctx, caller, request.params.dictionary_id);
      const updated = await ctx.dictionaries.update(caller.teamId, request.params.dictionary_id, {
        name: request.body.name,
        isTemporary: request.body.is_temporary,
      });
      return dictionaryBody(ctx, updated!);
    },
  );
