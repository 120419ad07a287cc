// What request logs must never carry: the signature of a signed URL (anyone holding it has a working
// link) and API keys. Applied to the logger Fastify uses, so it holds at every level and for every
// line that logs a request or headers, whoever writes it.
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

export const REDACTED = '[redacted]';

/** Query parameters of signed URLs (src-server/signing/url-signer.ts). */
const SIGNED_URL_PARAMS = /([?&](?:signature|expires)=)[^&#]*/gi;

/**
 * A request URL fit for the log: signed-URL routes (/files/...) lose their whole query, and any other
 * URL loses the values of the signing parameters.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return url;
  if (url.startsWith('/files/')) return `${url.slice(0, query)}?${REDACTED}`;
  return url.replace(SIGNED_URL_PARAMS, `$1${REDACTED}`);
}

/** Headers that carry a key, wherever a log line nests them. */
const KEY_HEADERS = ['["x-api-key"]', '.authorization', '.cookie'];
const REDACT_PATHS = ['headers', 'req.headers', 'request.headers', 'res.headers', 'err.headers'].flatMap((parent) =>
  KEY_HEADERS.map((header) => `${parent}${header}`),
);

/** Fastify's request serializer, with the URL redacted. Anything else logged as `req` passes through (and through `redact`). */
function serializeRequest(request: FastifyRequest | Record<string, unknown>) {
  if (!isRequest(request)) return request;
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

function isRequest(value: FastifyRequest | Record<string, unknown>): value is FastifyRequest {
  return typeof value.url === 'string' && typeof value.method === 'string' && 'socket' in value;
}

export function redactingLogger(logger: Logger): Logger {
  return logger.child(
    {},
    { serializers: { req: serializeRequest }, redact: { paths: REDACT_PATHS, censor: REDACTED } },
  );
}
