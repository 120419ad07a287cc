import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { EmptyBody, errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { DictionaryParams } from './get-dictionary.js';

export const deleteDictionary: RouteModule = (app, ctx) =>
  app.delete(
    '/api/v1/dictionaries/:dictionary_id',
    {
      schema: {
        summary: 'Delete a dictionary with its words and blacklist words (empty body)',
        tags: ['dictionaries'],
        params: DictionaryParams,
        response: { 200: EmptyBody, ...errorResponses(401, 404) },
      },
    },
    async (request, reply) => {
      const deleted = await ctx.dictionaries.delete(callerOf(request).teamId, request.params.dictionary_id);
      if (!deleted) throw errors.dictionaryNotFound(request.params.dictionary_id);
      return reply.status(200).send();
    },
  );
