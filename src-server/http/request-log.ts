// Where the lines about a request go (decision 0041).
// Fastify's own request logging costs on every request, whether or not a line is written: a child
// logger per request, and a 'finish' and an 'error' listener per response, added and removed. That is
// about a tenth of a cached list request (bench:cluster). It is only worth it when its lines are written,
// at info and below ("incoming request", "request completed"). Above info, Fastify runs without a logger.
// The server's own lines about a request (an error with its error_id, a failing health check) go
// through requestLog(request) at every level, bound to the request.
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactingLogger } from './log-redaction.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** How this app logs requests (installRequestLogging). */
    requestLogging: RequestLogging;
  }
}

export interface RequestLogging {
  /** Fastify's `loggerInstance`: the server's logger when Fastify's per-request lines would be written, else none. */
  fastify: FastifyBaseLogger | undefined;
  /** Lines about the server or a connection, with no request (a request Node could not parse). */
  server: FastifyBaseLogger;
}

/** How the app logs, for the server's logger (its level decides whether Fastify logs every request). */
export function requestLogging(logger: Logger): RequestLogging {
  // The redaction holds at every level, for every line about a request.
  const server: FastifyBaseLogger = redactingLogger(logger);
  return { server, fastify: logger.isLevelEnabled('info') ? server : undefined };
}

/** Makes requestLog() work for every request of `app`, those its router answers itself included. */
export function installRequestLogging(app: FastifyInstance, logging: RequestLogging): void {
  app.decorate('requestLogging', logging);
}

/**
 * A request's logger, at any level: Fastify's request.log when Fastify logs requests; otherwise a child
 * of the server's logger bound to the request's id and line (method, redacted URL, address), made when
 * something is logged. Without Fastify's "incoming request" line, the line itself says which request it was.
 */
export function requestLog(request: FastifyRequest): FastifyBaseLogger {
  const { fastify, server } = request.server.requestLogging;
  // eslint-disable-next-line no-restricted-properties -- on this branch Fastify has a logger
  return fastify ? request.log : server.child({ reqId: request.id, req: request });
}
