// /healthz and /readyz (docs/deploy/README.md): no key, never rate-limited.
import { randomUUID } from 'node:crypto';
import { getHealth, getReadiness } from '../../../../src-shared/api/health.js';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import type { RouteModule } from '../../api-app.js';
import { errors } from '../../../application/errors.js';
import { requestLog } from '../../request-log.js';

const NOT_READY = {
  starting: 'This server is still starting. Send the request to another node, or try again in a few seconds.',
  draining: 'This server is shutting down and takes no new work. Send the request to another node.',
  database:
    'This server cannot reach its database. Send the request to another node; its administrator should look at the server log.',
} as const;

export const healthRoutes: RouteModule[] = [
  (app, ctx) =>
    app.get(getHealth.path, { schema: getHealth.schema }, async (request, reply) => {
      const { ok, components } = await ctx.health.report();
      const role = ctx.config.server.role;
      if (ok) return { status: 'ok' as const, role, components };
      const failing = Object.entries(components)
        .filter(([, c]) => c.status === 'failing')
        .map(([name, c]) => `${name} (${c.detail ?? 'failing'})`);
      const errorId = randomUUID();
      const message = `This server cannot do its work: ${failing.join(', ')} failing. Its administrator should look at the server log, quoting the error id.`;
      requestLog(request).warn({ error_id: errorId, error_code: ErrorCode.UNHEALTHY, components }, message);
      return reply.code(503).send({
        error_id: errorId,
        error_code: ErrorCode.UNHEALTHY,
        error_message: message,
        status: 'failing' as const,
        role,
        components,
      });
    }),
  (app, ctx) =>
    app.get(getReadiness.path, { schema: getReadiness.schema }, async () => {
      const readiness = await ctx.health.readiness();
      if (!readiness.ready) throw errors.notReady(NOT_READY[readiness.reason]);
      return { status: 'ready' as const };
    }),
];
