import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { HealthFailure, HealthMonitor } from '../../../../src-server/process/health.js';

const logger = pino({ level: 'silent' });
const refused = () =>
  Promise.reject(
    Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 (postgres://user:secret@db)'), {
      code: 'ECONNREFUSED',
    }),
  );

describe('HealthMonitor', () => {
  it('reports every component, with a detail when a check gives one', async () => {
    const monitor = new HealthMonitor(
      { database: async () => undefined, queue: async () => '2 queued, 1 running' },
      logger,
    );
    expect(await monitor.report()).toEqual({
      ok: true,
      components: { database: { status: 'ok' }, queue: { status: 'ok', detail: '2 queued, 1 running' } },
    });
  });

  it('shows a failure in a few words that never carry the error message (addresses, credentials)', async () => {
    const monitor = new HealthMonitor(
      { database: refused, storage: () => Promise.reject(new Error('s3://bucket secret')) },
      logger,
    );
    const report = await monitor.report();
    expect(report).toEqual({
      ok: false,
      components: {
        database: { status: 'failing', detail: 'cannot be reached (ECONNREFUSED)' },
        storage: { status: 'failing', detail: 'cannot be reached' },
      },
    });
    expect(JSON.stringify(report)).not.toMatch(/secret|10\.0\.0\.5/);
  });

  it('answers "failing" for a check that hangs, and shows a HealthFailure as written', async () => {
    const monitor = new HealthMonitor({ storage: () => new Promise<void>(() => undefined) }, logger, 20);
    monitor.add('worker', () =>
      Promise.reject(new HealthFailure('worker process exited with code 1; restarting in 2 s')),
    );
    expect((await monitor.report()).components).toEqual({
      storage: { status: 'failing', detail: 'no answer within 0.02 s' },
      worker: { status: 'failing', detail: 'worker process exited with code 1; restarting in 2 s' },
    });
  });

  it('is ready once started, until it drains or loses its database', async () => {
    let databaseUp = true;
    const monitor = new HealthMonitor(
      { database: () => (databaseUp ? Promise.resolve() : refused()), storage: refused },
      logger,
    );
    expect(await monitor.readiness()).toEqual({ ready: false, reason: 'starting' });
    monitor.markStarted();
    // Storage failing makes /healthz 503, but the node can still answer: it stays in the load balancer.
    expect(await monitor.readiness()).toEqual({ ready: true });
    databaseUp = false;
    expect(await monitor.readiness()).toEqual({ ready: false, reason: 'database' });
    databaseUp = true;
    monitor.markDraining();
    expect(await monitor.readiness()).toEqual({ ready: false, reason: 'draining' });
  });
});
