import { listTranscriptions as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { baseUrl, transcriptionBody } from '../../representations.js';
import { ResponseCache } from '../../response-cache.js';
import type { RouteModule } from '../../api-app.js';

export const listTranscriptions: RouteModule = (app, ctx) => {
  const cache = new ResponseCache();
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const { teamId, teamListVersion } = callerOf(request);
    const page = request.query.page ?? 1;
    const key = `${teamId}\n${page}\n${baseUrl(ctx, request)}`;
    const version = teamListVersion ?? (await ctx.transcriptions.listVersion(teamId));
    let body = cache.get(key, version);
    if (body === null) {
      const rows = await ctx.transcriptions.list(teamId, page, ctx.config.pageSize);
      body = JSON.stringify(rows.map((r) => transcriptionBody(ctx, request, r)));
      cache.set(key, version, body);
    }
    // A string with a JSON content type is sent as is, skipping serialization.
    return reply.type('application/json; charset=utf-8').send(body as unknown as []);
  });
};
