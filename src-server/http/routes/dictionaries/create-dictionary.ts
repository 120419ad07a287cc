import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { dictionaryBody } from '../../representations.js';
import { DictionaryName, errorResponses, LIMITS, WordCreateRequest } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';

export const createDictionary: RouteModule = (app, ctx) =>
  app.post(
    '/api/v1/dictionaries',
    {
      schema: {
        summary: 'Create a dictionary, optionally with words',
        tags: ['dictionaries'],
        body: Type.Object(
          {
            name: DictionaryName,
            words: Type.Optional(Type.Array(WordCreateRequest, { maxItems: LIMITS.bulkItems })),
            is_temporary: Type.Optional(Type.Boolean({ default: false })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Ref('Dictionary'), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { name, words = [], is_temporary = false } = request.body;
      const dictionary = await ctx.dictionaries.create(callerOf(request).teamId, { name, isTemporary: is_temporary, words });
      return dictionaryBody(ctx, dictionary);
    },
  );
