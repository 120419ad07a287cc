import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { findDictionary } from '../../lookups.js';
import { dictionaryBody } from '../../representations.js';
import { errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';

export const DictionaryParams = Type.Object({ dictionary_id: Type.String() });

export const getDictionary: RouteModule = (app, ctx) =>
  app.get(
    '/api/v1/dictionaries/:dictionary_id',
    {
      schema: {
        summary: 'Get a dictionary with its words and blacklist words',
        tags: ['dictionaries'],
        params: DictionaryParams,
        response: { 200: Type.Ref('Dictionary'), ...errorResponses(401, 404) },
      },
    },
    async (request) => dictionaryBody(ctx, await findDictionary(ctx, callerOf(request), request.params.dictionary_id)),
  );
