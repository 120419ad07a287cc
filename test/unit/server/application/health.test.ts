// What /healthz and /readyz are told by the use case: the report with its role, the failing components named
// in one message, and readiness as a closed error saying why. The monitor is real; only the checks are made up.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { assertReady, serverHealth, type HealthContext } from '../../../../src-server/application/health.js';
import { AppError } from '../../../../src-server/application/errors.js';
import { HealthFailure, HealthMonitor } from '../../../../src-server/process/health.js';

const logger = pino({ level: 'silent' });

/** Only what the use cases read: the monitor and the role. */
function context(monitor: HealthMonitor): HealthContext {
  return { health: monitor, config: { server: { role: 'api' } } as HealthContext['config'] };
}

async function refusal(run: Promise<unknown>): Promise<AppError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (error instanceof AppError) return error;
  throw new Error(`expected an AppError, got ${String(error)}`);
}

describe('serverHealth', () => {
  it('reports the components and the role when every check passes', async () => {
    const monitor = new HealthMonitor({ database: async () => undefined, queue: async () => '3 waiting' }, logger);
    expect(await serverHealth(context(monitor))).toEqual({
      ok: true,
      role: 'api',
      components: { database: { status: 'ok' }, queue: { status: 'ok', detail: '3 waiting' } },
    });
  });

  it('names each failing component and why, and what the administrator should do', async () => {
    const monitor = new HealthMonitor(
      {
        database: async () => undefined,
        storage: async () => {
          throw new HealthFailure('disk gone');
        },
      },
      logger,
    );
    const health = await serverHealth(context(monitor));
    expect(health.ok).toBe(false);
    if (health.ok) return;
    expect(health.components.storage).toEqual({ status: 'failing', detail: 'disk gone' });
    expect(health.message).toBe(
      'This server cannot do its work: storage (disk gone) failing. Its administrator should look at the server log, quoting the error id.',
    );
  });
});

describe('assertReady', () => {
  it('refuses with NOT_READY while starting, while draining and when the database fails, saying where to go', async () => {
    let databaseUp = true;
    const monitor = new HealthMonitor(
      {
        database: async () => {
          if (!databaseUp) throw new Error('connection refused');
        },
      },
      logger,
    );
    const ctx = context(monitor);
    const starting = await refusal(assertReady(ctx));
    expect([starting.statusCode, starting.code]).toEqual([503, 'NOT_READY']);
    expect(starting.message).toMatch(/still starting/);

    monitor.markStarted();
    await expect(assertReady(ctx)).resolves.toBeUndefined();

    databaseUp = false;
    expect((await refusal(assertReady(ctx))).message).toMatch(/cannot reach its database/);

    monitor.markDraining();
    expect((await refusal(assertReady(ctx))).message).toMatch(/shutting down/);
  });
});
