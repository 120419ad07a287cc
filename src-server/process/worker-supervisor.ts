// The `all` role's worker process: the same CLI, forked with `serve --role worker`, so that a job (decoding
// glue, forced replacements, engine callbacks) never runs on the HTTP process's event loop. child_process.fork
// runs process.execPath, which is also right under Electron's ELECTRON_RUN_AS_NODE (the desktop app's
// embedded server): the child inherits that environment. The child stops itself when this process's IPC
// channel closes (roles.ts), so even a SIGKILLed parent leaves no orphan behind.
import { fork, type ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';
import { backoffDelay } from '../../src-shared/backoff.js';
import { HealthFailure } from './health.js';

/** Messages over the IPC channel. Parent -> child: drain. Child -> parent: ready. */
export type SupervisorMessage = { type: 'drain' } | { type: 'ready'; pid: number };

export const isSupervisorMessage = (value: unknown): value is SupervisorMessage =>
  typeof value === 'object' &&
  value !== null &&
  ((value as { type?: unknown }).type === 'drain' || (value as { type?: unknown }).type === 'ready');

export interface WorkerSupervisorOptions {
  /** The CLI script (bin/kikitori-server.js, or what the parent was started with). */
  script: string;
  /** Its arguments: `serve`, the parent's flags, `--role worker`. */
  args: string[];
  logger: Logger;
  /** How long the worker may drain; after that (and a margin) it is killed. */
  drainMs: number;
  /** First restart delay; doubles (with jitter) up to a minute while the worker keeps dying. */
  restartBaseMs?: number;
}

/** A worker that lived this long before it died was healthy: the next restart is quick again. */
const STABLE_AFTER_MS = 60_000;
const KILL_MARGIN_MS = 10_000;

export class WorkerSupervisor {
  private child: ChildProcess | null = null;
  private ready = false;
  private stopping = false;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  /** Why the worker is not running, for /healthz. */
  private problem = 'starting';
  private firstOutcome: (() => void) | null = null;
  /** Resolves once the first worker is ready, or has died trying (the restarts go on). */
  readonly firstStart = new Promise<void>((resolve) => (this.firstOutcome = resolve));

  constructor(private readonly options: WorkerSupervisorOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    this.spawn();
  }

  /** The /healthz component. */
  check = async (): Promise<string> => {
    if (this.child && this.ready) return `pid ${this.child.pid}`;
    throw new HealthFailure(this.problem);
  };

  /** Asks the worker to drain and waits for it to exit; kills it when it overstays its grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    // A worker still starting may not listen for messages yet; it has no job either, so a signal does.
    if (this.ready && child.connected) child.send({ type: 'drain' } satisfies SupervisorMessage);
    else child.kill('SIGTERM');
    const killer = setTimeout(() => {
      this.options.logger.warn({ pid: child.pid }, 'worker process did not stop within its drain period; killing it');
      child.kill('SIGKILL');
    }, this.options.drainMs + KILL_MARGIN_MS);
    await exited;
    clearTimeout(killer);
  }

  private spawn() {
    const startedAt = Date.now();
    const child = fork(this.options.script, this.options.args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child = child;
    this.ready = false;
    this.problem = 'starting';
    child.on('message', (message: unknown) => {
      if (isSupervisorMessage(message) && message.type === 'ready') {
        this.ready = true;
        this.options.logger.info({ workerPid: message.pid }, 'worker process ready');
        this.firstOutcome?.();
      }
    });
    child.once('error', (error) => this.options.logger.error({ err: error }, 'worker process error'));
    child.once('exit', (code, signal) => {
      this.ready = false;
      this.firstOutcome?.();
      if (this.child === child) this.child = null;
      if (this.stopping) return;
      this.failures = Date.now() - startedAt > STABLE_AFTER_MS ? 1 : this.failures + 1;
      const delay = backoffDelay(this.failures - 1, {
        baseDelayMs: this.options.restartBaseMs ?? 1000,
        maxDelayMs: 60_000,
      });
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      this.problem = `worker process ${how}; restarting in ${Math.ceil(delay / 1000)} s`;
      this.options.logger.error({ code, signal, restartInMs: delay }, 'worker process died; restarting it');
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (!this.stopping) this.spawn();
      }, delay);
    });
  }
}
