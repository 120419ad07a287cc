// Per-minute request budgets through @fastify/rate-limit (decision 0026): one per API key (by its id,
// never the key itself) for the API and the OpenAI-compatible routes, one per client address for what
// is asked without a key (signed upload and download URLs, /docs). /healthz and /readyz are never limited, so that
// load balancers and monitors keep seeing the server. Over budget: 429 RATE_LIMITED with Retry-After,
// in the spec's error body (OpenAI's under /v1/, like every error there).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RateLimitsConfig } from '../config.js';
import { errors } from '../application/errors.js';

const WINDOW_MS = 60_000;
const UNLIMITED_PATHS = new Set(['/healthz', '/readyz']);

const KEY_PREFIX = 'key:';
/** The bucket a request counts against. Authentication runs first, so an API caller is known here. */
const bucketOf = (request: FastifyRequest) =>
  request.caller ? `${KEY_PREFIX}${request.caller.keyId}` : `ip:${request.ip}`;

/** Registers the limits on every route declared after it. Call before the routes. */
export async function installRateLimits(app: FastifyInstance, config: RateLimitsConfig): Promise<void> {
  const limitFor = (bucket: string) => (bucket.startsWith(KEY_PREFIX) ? config.perKey : config.perIp);
  if (config.perKey === 0 && config.perIp === 0) return;
  await app.register(rateLimit, {
    global: true,
    timeWindow: WINDOW_MS,
    keyGenerator: bucketOf,
    max: (_request, bucket) => limitFor(bucket),
    allowList: (request, bucket) => UNLIMITED_PATHS.has(request.routeOptions.url ?? '') || limitFor(bucket) === 0,
    errorResponseBuilder: (request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      const who = request.caller ? 'with this API key' : 'from your address';
      return errors.rateLimited(
        `Too many requests ${who}: this server allows ${context.max} a minute. Wait ${seconds} second${seconds === 1 ? '' : 's'} (the Retry-After header) and try again.`,
      );
    },
  });
}
