import { listTranscriptions as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { baseUrl, transcriptionBody } from '../../representations.js';
import { ResponseCache } from '../../response-cache.js';
import type { RouteModule } from '../../api-app.js';

export const listTranscriptions: RouteModule = (app, ctx) => {
  const cache = new ResponseCache<Buffer>();
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const { teamId, teamListVersion } = callerOf(request);
    const page = request.query.page ?? 1;
    const key = `${teamId}\n${page}\n${baseUrl(ctx, request)}`;
    const version = teamListVersion ?? (await ctx.transcriptions.listVersion(teamId));
    let body = cache.get(key, version);
    if (body === null) {
      const rows = await ctx.transcriptions.list(teamId, page, ctx.config.pageSize);
      // Stored as UTF-8 bytes: a hit is then written as it is, with no per-request string encoding.
      body = Buffer.from(JSON.stringify(rows.map((r) => transcriptionBody(ctx, request, r))), 'utf8');
      cache.set(key, version, body);
    }
    // A Buffer is sent as is, skipping serialization.
    return reply.type('application/json; charset=utf-8').send(body as unknown as []);
  });
};
