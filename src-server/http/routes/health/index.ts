import { getHealth } from '../../../../src-shared/api/health.js';
import type { RouteModule } from '../../api-app.js';

export const healthRoutes: RouteModule[] = [(app) => app.get(getHealth.path, { schema: getHealth.schema }, async () => ({ status: 'ok' as const }))];
