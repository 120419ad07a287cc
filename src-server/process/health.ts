// What /healthz and /readyz answer (docs/deploy/README.md): each component this process depends on
// (database, storage, queue, and for the `all` role its worker process) checked at once, each bounded
// by a timeout so that a hung backend makes the answer "failing", never a hung health check. Reasons are
// short and safe to show without a key (an errno code, never a connection string); the log has the rest.
import type { Logger } from 'pino';

/** Resolves (optionally with a short detail for operators) when the component works; throws when it does not. */
export type HealthCheck = () => Promise<string | void>;

export interface ComponentHealth {
  status: 'ok' | 'failing';
  /** Ok: e.g. the queue's backlog. Failing: why, in a few words. */
  detail?: string;
}

export interface HealthReport {
  ok: boolean;
  components: Record<string, ComponentHealth>;
}

export type Readiness = { ready: true } | { ready: false; reason: 'starting' | 'draining' | 'database' };

const CHECK_TIMEOUT_MS = 3000;

/** An error the checks may show: its errno-style code when it has one, else its class. */
export function shortReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return `cannot be reached (${code})`;
  if (error instanceof HealthFailure) return error.message;
  return 'cannot be reached';
}

/** A check's own failure, whose message is written to be shown (the worker process: "restarting in 4 s"). */
export class HealthFailure extends Error {
  override readonly name = 'HealthFailure';
}

export class HealthMonitor {
  private readonly checks = new Map<string, HealthCheck>();
  private started = false;
  private draining = false;

  constructor(
    checks: Record<string, HealthCheck>,
    private readonly logger: Logger,
    private readonly timeoutMs = CHECK_TIMEOUT_MS,
  ) {
    for (const [name, check] of Object.entries(checks)) this.checks.set(name, check);
  }

  /** Adds a component (the `all` role's worker process). */
  add(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  markStarted(): void {
    this.started = true;
  }

  /** From the first SIGTERM on, /readyz answers 503 so that load balancers stop sending requests here. */
  markDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async report(): Promise<HealthReport> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await this.run(name, check)] as const),
    );
    return { ok: entries.every(([, c]) => c.status === 'ok'), components: Object.fromEntries(entries) };
  }

  async readiness(): Promise<Readiness> {
    if (this.draining) return { ready: false, reason: 'draining' };
    if (!this.started) return { ready: false, reason: 'starting' };
    const database = this.checks.get('database');
    if (database && (await this.run('database', database)).status === 'failing')
      return { ready: false, reason: 'database' };
    return { ready: true };
  }

  private async run(name: string, check: HealthCheck): Promise<ComponentHealth> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new HealthFailure(`no answer within ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      );
    });
    try {
      const detail = await Promise.race([check(), timeout]);
      return typeof detail === 'string' ? { status: 'ok', detail } : { status: 'ok' };
    } catch (error) {
      this.logger.warn({ err: error, component: name }, 'health check failing');
      return { status: 'failing', detail: shortReason(error) };
    } finally {
      clearTimeout(timer);
    }
  }
}
