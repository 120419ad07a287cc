// How long the server waits on a client (decision 0026).
// - Headers: KIKITORI_HEADERS_TIMEOUT, Node's headersTimeout; a client that trickles its headers
//   (slow-loris) gets 408 and is disconnected.
// - Idle: KIKITORI_IDLE_TIMEOUT. A request that stops sending (a stalled upload) is disconnected, but a
//   slow, steady 4 GiB upload never is. Once a request is fully received, the wait is the server's
//   (a long synchronous transcription): the idle timer does not cut it off, unless the client stops
//   reading the response.
// - Whole request: KIKITORI_REQUEST_TIMEOUT, Node's requestTimeout (time to receive a request, body
//   included), by default as long as an upload URL lives.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../config.js';

type TimeoutSettings = Pick<
  ServerConfig['server'],
  'headersTimeoutSeconds' | 'idleTimeoutSeconds' | 'requestTimeoutSeconds'
>;

/** Fastify's constructor options for these timeouts. */
export function timeoutOptions(settings: TimeoutSettings): {
  http: ServerOptions;
  requestTimeout: number;
  connectionTimeout: number;
} {
  const requestTimeout = settings.requestTimeoutSeconds * 1000;
  // Node refuses a headers timeout longer than a (non-zero) request timeout.
  const headersTimeout =
    requestTimeout > 0
      ? Math.min(settings.headersTimeoutSeconds * 1000, requestTimeout)
      : settings.headersTimeoutSeconds * 1000;
  return {
    // Node checks these deadlines on a timer (30 s by default): often enough that a short headers timeout holds.
    http: {
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(headersTimeout / 4))),
    },
    requestTimeout,
    connectionTimeout: settings.idleTimeoutSeconds * 1000,
  };
}

/** True when the request is in and the server is still answering, with nothing stuck in the socket's buffer. */
function serverIsWorking(socket: Socket, response: ServerResponse | undefined): boolean {
  if (!response) return false;
  return response.req.complete && !response.writableEnded && socket.writableLength === 0;
}

/**
 * Replaces Node's "destroy the socket on idle" by the rule above. With a 'timeout' listener on the
 * server, Node leaves the decision to it.
 */
export function installIdleTimeout(app: FastifyInstance): void {
  // The response a connection is answering, or has answered last (its request is response.req; once
  // answered, writableEnded says so). Node's own 'request' event, not Fastify hooks: with an onResponse
  // hook Fastify adds two listeners to every response (decision 0041).
  const inFlight = new WeakMap<Socket, ServerResponse>();
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(request.socket, response);
  });
  app.server.on('timeout', (socket: Socket) => {
    if (serverIsWorking(socket, inFlight.get(socket))) return;
    socket.destroy();
  });
}
