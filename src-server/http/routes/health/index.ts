// /healthz and /readyz (docs/deploy/README.md): no key, never rate-limited.
import { randomUUID } from 'node:crypto';
import { getHealth, getReadiness } from '../../../../src-shared/api/health.js';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import { assertReady, serverHealth } from '../../../application/health.js';
import type { RouteModule } from '../../api-app.js';
import { requestLog } from '../../request-log.js';

export const healthRoutes: RouteModule[] = [
  (app, ctx) =>
    app.get(getHealth.path, { schema: getHealth.schema }, async (request, reply) => {
      const health = await serverHealth(ctx);
      const { role, components } = health;
      if (health.ok) return { status: 'ok' as const, role, components };
      // The error body with the health report beside it, so a probe reads both.
      const errorId = randomUUID();
      requestLog(request).warn({ error_id: errorId, error_code: ErrorCode.UNHEALTHY, components }, health.message);
      return reply.code(503).send({
        error_id: errorId,
        error_code: ErrorCode.UNHEALTHY,
        error_message: health.message,
        status: 'failing' as const,
        role,
        components,
      });
    }),
  (app, ctx) =>
    app.get(getReadiness.path, { schema: getReadiness.schema }, async () => {
      await assertReady(ctx);
      return { status: 'ready' as const };
    }),
];
