import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { dictionaryListItemBody } from '../../representations.js';
import { errorResponses, PageQuery } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';

export const listDictionaries: RouteModule = (app, ctx) =>
  app.get(
    '/api/v1/dictionaries',
    {
      schema: {
        summary: 'List the team’s dictionaries, newest first',
        tags: ['dictionaries'],
        querystring: PageQuery,
        response: { 200: Type.Array(Type.Ref('DictionaryListItem')), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await ctx.dictionaries.list(callerOf(request).teamId, request.query.page ?? 1, ctx.config.pageSize);
      return rows.map(dictionaryListItemBody);
    },
  );
