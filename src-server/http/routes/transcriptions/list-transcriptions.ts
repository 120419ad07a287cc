import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { transcriptionBody } from '../../representations.js';
import { errorResponses, PageQuery } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';

export const listTranscriptions: RouteModule = (app, ctx) =>
  app.get(
    '/api/v1/transcriptions',
    {
      schema: {
        summary: 'List the team’s transcriptions, newest first',
        tags: ['transcriptions'],
        querystring: PageQuery,
        response: { 200: Type.Array(Type.Ref('Transcription')), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const rows = await ctx.transcriptions.list(callerOf(request).teamId, request.query.page ?? 1, ctx.config.pageSize);
      return rows.map((r) => transcriptionBody(ctx, request, r));
    },
  );
