// What this node says about itself on /healthz and /readyz (docs/deploy/README.md): its components and role, and
// whether it takes new work. The health monitor (process/health.ts) runs the checks; this words the answers.
import type { AppContext } from '../app-context.js';
import type { ComponentHealth } from '../process/health.js';
import { errors } from './errors.js';

/** What the health answers read: only these parts of the context. */
export type HealthContext = Pick<AppContext, 'health' | 'config'>;

const NOT_READY = {
  starting: 'This server is still starting. Send the request to another node, or try again in a few seconds.',
  draining: 'This server is shutting down and takes no new work. Send the request to another node.',
  database:
    'This server cannot reach its database. Send the request to another node; its administrator should look at the server log.',
} as const;

type Components = Record<string, ComponentHealth>;
type Role = AppContext['config']['server']['role'];

/** Not ok: `message` names the failing components and what to do, for the error body and the log line. */
export type ServerHealth =
  { ok: true; role: Role; components: Components } | { ok: false; role: Role; components: Components; message: string };

export async function serverHealth(ctx: HealthContext): Promise<ServerHealth> {
  const { ok, components } = await ctx.health.report();
  const role = ctx.config.server.role;
  if (ok) return { ok, role, components };
  const failing = Object.entries(components)
    .filter(([, c]) => c.status === 'failing')
    .map(([name, c]) => `${name} (${c.detail ?? 'failing'})`);
  const message = `This server cannot do its work: ${failing.join(', ')} failing. Its administrator should look at the server log, quoting the error id.`;
  return { ok, role, components, message };
}

/** Resolves when this node takes new work; else a NOT_READY error saying why and where to go instead. */
export async function assertReady(ctx: HealthContext): Promise<void> {
  const readiness = await ctx.health.readiness();
  if (!readiness.ready) throw errors.notReady(NOT_READY[readiness.reason]);
}
