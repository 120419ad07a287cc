import { Type } from 'typebox';
import type { RouteModule } from '../../api-app.js';

export const healthRoutes: RouteModule[] = [
  (app) =>
    app.get(
      '/healthz',
      {
        schema: {
          summary: 'Liveness check (no API key)',
          tags: ['health'],
          security: [],
          response: { 200: Type.Object({ status: Type.Literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    ),
];
