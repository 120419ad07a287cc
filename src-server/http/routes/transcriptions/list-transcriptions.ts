import { listTranscriptions as operation } from '../../../../src-shared/api/transcriptions.js';
import { listTranscriptions as list, listVersion } from '../../../application/transcriptions.js';
import type { Caller } from '../../../domain/records.js';
import { callerOf } from '../../auth.js';
import { baseUrl, transcriptionBody } from '../../representations.js';
import { VersionedCache } from '../../versioned-cache.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteModule } from '../../api-app.js';

export const listTranscriptions: RouteModule = (app, ctx) => {
  // Pages as UTF-8 bytes, under the change watch's generation (no query at all on a hit), or under the
  // team's list_version while the watch cannot see changes (decision 0039). The two never share an entry.
  const cache = new VersionedCache<Buffer>();
  // A Buffer is sent as is, skipping serialization.
  const send = (reply: FastifyReply, body: Buffer): void =>
    void reply.type('application/json; charset=utf-8').send(body);
  const fill = async (request: FastifyRequest, key: string, caller: Caller, page: number): Promise<Buffer> => {
    const version = request.changeGeneration ?? (await listVersion(ctx, caller));
    const cached = cache.get(key, version);
    if (cached !== null) return cached;
    const rows = await list(ctx, caller, page);
    // UTF-8 bytes: a hit is then written as it is, with no per-request string encoding.
    const body = Buffer.from(JSON.stringify(rows.map((r) => transcriptionBody(ctx, request, r))), 'utf8');
    cache.set(key, version, body);
    return body;
  };
  // Not an async handler: a page held under the current generation is sent at once, with no promise
  // (the hottest request of the API: every desktop client polls it).
  app.get(operation.path, { schema: operation.schema }, (request, reply) => {
    const caller = callerOf(request);
    const page = request.query.page ?? 1;
    // Read once per request, by the authentication hook.
    const generation = request.changeGeneration;
    const key = `${generation === null ? 'list_version' : 'generation'}\n${caller.teamId}\n${page}\n${baseUrl(ctx, request)}`;
    const hit = generation === null ? null : cache.get(key, generation);
    if (hit !== null) {
      send(reply, hit);
      return;
    }
    return fill(request, key, caller, page).then((body) => send(reply, body));
  });
};
