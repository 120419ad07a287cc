// `kikitori-server serve --role api|worker|all` as processes (docs/deploy/README.md, decision 0033):
// what each role starts, what it prints when ready, and how it stops. The CLI hands in the typed
// configuration and, for `all`, how to start its worker process.
//
// Stopping: the first SIGTERM or SIGINT drains (/readyz turns 503; no new job is taken; running jobs get
// KIKITORI_DRAIN_SECONDS to finish, then go back to the queue; HTTP closes once in-flight requests have
// finished), gives stdout up to KIKITORI_LOG_FLUSH_SECONDS to take the last log lines, then exits 0 (1 when
// the drain failed). A second signal ends the process at once, by the signal's own action; jobs it leaves
// behind are recovered by the next worker (decision 0047).
import type { Logger } from 'pino';
import { CONFIG_SETTINGS, ConfigError, type ServerConfig } from '../config.js';
import { createRuntime, createWorkerRuntime } from '../server-runtime.js';
import { flushStdout } from './logger.js';
import { isSupervisorMessage, WorkerSupervisor } from './worker-supervisor.js';

/** How the `all` role starts its worker process: this CLI again, with `serve --role worker`. */
export interface WorkerCommand {
  script: string;
  args: string[];
}

const envOf = (settingPath: string) => CONFIG_SETTINGS.find((s) => s.path === settingPath)?.env ?? settingPath;

/**
 * Several processes must sign and check URLs with one secret: any HTTP role when the records are in a
 * shared database, and every `api` process. A worker signs nothing. The data dir's signing.key stays the
 * single-process default (`all` on SQLite, whose worker shares its data dir).
 */
export function requireSharedSigningSecret(config: ServerConfig): void {
  if (config.signing.secret !== undefined || config.server.role === 'worker') return;
  if (config.server.role === 'all' && config.database.url === null) return;
  const why =
    config.server.role === 'api'
      ? `${envOf('server.role')}=api runs beside other processes`
      : `${envOf('database.url')} is set, so several servers share one database`;
  throw new ConfigError(
    `${envOf('signing.secret')} is required: ${why}, and every API process must sign and check upload and download URLs with the same secret. ` +
      `Generate one with \`openssl rand -base64 48\` and give the same value to every process.`,
  );
}

/**
 * Drains on the first SIGTERM/SIGINT (or `drain` from a supervising parent), then exits, with or without a
 * failure. The handlers go as the drain starts: a second signal then takes its default action and ends the
 * process without running any JavaScript, so it works even while this thread is busy or blocked, which a
 * handler could not. PID 1 (a container without an init) keeps them: the kernel drops a signal that PID 1
 * does not handle, so there a second signal exits once JavaScript runs.
 */
function stopOnSignals(
  logger: Logger,
  config: ServerConfig,
  drain: (reason: string) => Promise<void>,
): { drainNow(reason: string): void } {
  let draining = false;
  const exit = async (code: number) => {
    await flushStdout(config.log.flushSeconds);
    process.exit(code);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (!draining) return drainNow(signal);
    logger.warn({ signal }, 'second signal: exiting at once; running jobs are recovered by the next worker');
    process.exit(1);
  };
  const drainNow = (reason: string) => {
    if (draining) return;
    draining = true;
    if (process.pid !== 1) {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    }
    logger.info(
      { reason },
      'draining: finishing running work, then exiting; a second SIGTERM or SIGINT ends the process at once',
    );
    drain(reason).then(
      () => {
        logger.info('drained; exiting');
        return exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while draining; exiting');
        return exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return { drainNow };
}

/** `api`: HTTP only; it sends jobs and runs none. Prints the URL alone, as `all` does. */
export async function serveApi(config: ServerConfig, logger: Logger): Promise<void> {
  const runtime = await createRuntime(config, { logger, runJobs: false });
  const url = await runtime.listen();
  process.stdout.write(`kikitori-server listening on ${url}\n`);
  stopOnSignals(logger, config, () => runtime.drain(0));
}

/** `all`: HTTP here, the jobs in a worker process this one supervises. */
export async function serveAll(config: ServerConfig, logger: Logger, worker: WorkerCommand): Promise<void> {
  const runtime = await createRuntime(config, { logger, runJobs: false });
  const supervisor = new WorkerSupervisor({ ...worker, logger, drainMs: config.server.drainSeconds * 1000 });
  runtime.ctx.health.add('worker', supervisor.check);
  supervisor.start();
  const url = await runtime.listen();
  // The URL alone on stdout: scripts and the desktop app wait for this line, and then expect the jobs to
  // run: it comes once the worker is ready (or has failed to start, which /healthz then reports).
  await supervisor.firstStart;
  process.stdout.write(`kikitori-server listening on ${url}\n`);
  stopOnSignals(logger, config, async () => {
    // /readyz turns 503 at once; HTTP keeps answering (status polls) while the worker drains.
    runtime.ctx.health.markDraining();
    await supervisor.stop();
    await runtime.drain(0);
  });
}

/** `worker`: the jobs, no port. Prints one "worker ready" line once it takes jobs. */
export async function serveWorker(config: ServerConfig, logger: Logger): Promise<void> {
  const runtime = await createWorkerRuntime(config, { logger });
  await runtime.start();
  const graceMs = config.server.drainSeconds * 1000;
  const stopper = stopOnSignals(logger, config, () => runtime.drain(graceMs));
  logger.info({ concurrency: config.jobs.concurrency, drainSeconds: config.server.drainSeconds }, 'worker ready');
  process.stdout.write(`kikitori-server worker ready (pid ${process.pid})\n`);
  if (process.send && process.channel) {
    // Supervised by an `all` process: it asks for a drain over IPC; if it dies, the channel closes and
    // this worker exits rather than live on as an orphan.
    process.on('message', (message: unknown) => {
      if (isSupervisorMessage(message) && message.type === 'drain') stopper.drainNow('asked by the server process');
    });
    process.on('disconnect', () => {
      // The parent crashed (it says `drain` before a clean stop): go with it, as one process would have.
      // Running jobs stay active under this dead pid; the next worker on this host takes them at once.
      logger.warn('the server process that started this worker is gone; exiting with it');
      process.exit(1);
    });
    process.send({ type: 'ready', pid: process.pid });
  }
}
