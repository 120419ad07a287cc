// What the client-error path needs of a connection that Node's HTTP parser rejected: the first bytes
// the client sent (to answer a /v1/ request in OpenAI's body when the parser fails on a later chunk of a
// very long request line), and a lingering close (so that the answer is not lost to a TCP reset).
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';

/** Enough of a request's first line to read its method and whether its target is under /v1/. */
const HEAD_BYTES = 256;

/**
 * After answering a request it could not parse, the server keeps reading (and discarding) what the
 * client still sends, at most this many bytes and for at most this long, so that the close is not a
 * reset that discards the answer before the client reads it (RFC 9112 section 9.6).
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;

const heads = new WeakMap<Socket, Buffer>();
/** Connections with a request parsed and not yet answered: their bytes are that request's body. */
const inRequest = new WeakSet<Socket>();
const lingering = new WeakSet<Socket>();
/** The last request Node has parsed on each connection. */
const lastRequest = new WeakMap<Socket, IncomingMessage>();

/**
 * Keeps the first bytes of every request until Node has parsed its head (on a kept-alive connection,
 * the bytes that come after the previous request). Also makes every close the server starts after an
 * answer (`Connection: close`, e.g. a 413 before the body is read) a lingering one.
 */
export function rememberConnectionHeads(server: Server): void {
  server.on('request', (request: IncomingMessage, response: { once(event: 'finish', listener: () => void): unknown }) => {
    const socket = request.socket;
    lastRequest.set(socket, request);
    inRequest.add(socket);
    heads.delete(socket);
    response.once('finish', () => inRequest.delete(socket));
  });
  server.on('connection', (socket: Socket) => {
    let lastBefore: IncomingMessage | undefined;
    // Whether the next read starts a request (or goes on with a head not parsed yet), rather than a body.
    let atBoundary = true;
    const onRead = (read: () => Buffer) => {
      // Called once Node has parsed the read. A request that began in it had its head whole in the read;
      // a read that started inside a body (the rest of one answered early, say) holds no head either.
      const last = lastRequest.get(socket);
      const began = last !== lastBefore;
      lastBefore = last;
      if (atBoundary && !began) {
        const head = heads.get(socket);
        if (!head || head.length < HEAD_BYTES) heads.set(socket, Buffer.concat([head ?? Buffer.alloc(0), read().subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES));
      }
      atBoundary = last === undefined || last.complete;
    };
    if (!watchReads(socket, onRead)) socket.on('data', (chunk: Buffer) => onRead(() => chunk));
    // Node closes a connection after an answer with socket.destroySoon(): a reset when the client is
    // still sending the body the route never read.
    socket.destroySoon = () => closeLingering(socket, undefined);
  });
}

/** What node:http keeps on a server connection's socket: its HTTP parser (internal). */
interface NodeHttpParser {
  constructor: { kOnExecute?: unknown };
  getCurrentBuffer?: () => Buffer;
  [slot: number]: unknown;
}

/**
 * Calls `onRead` after Node has parsed each read of the connection, leaving the parsing where Node does
 * it, in C++. Listening to 'data' would make Node parse the connection from JavaScript instead, which
 * cost about 25 µs of CPU per request, a third of a cached list request (decision 0039, bench:cluster).
 * Node's HTTP server already calls into JavaScript once per read: its parser's kOnExecute callback,
 * during which getCurrentBuffer() copies that read (only when `onRead` asks). Both are internals of
 * node:http, not public API, so this checks they are there and says false when they are not (the caller
 * then listens to 'data'); test/integration/server/router-errors.test.ts fails if a Node release changes
 * their meaning.
 */
function watchReads(socket: Socket, onRead: (read: () => Buffer) => void): boolean {
  const parser = (socket as Socket & { parser?: NodeHttpParser }).parser;
  const slot = parser?.constructor.kOnExecute;
  if (!parser || typeof slot !== 'number' || typeof parser[slot] !== 'function' || typeof parser.getCurrentBuffer !== 'function') return false;
  const onExecute = parser[slot] as (...args: unknown[]) => unknown;
  const currentBuffer = parser.getCurrentBuffer.bind(parser);
  parser[slot] = function (this: unknown, ...args: unknown[]) {
    onRead(currentBuffer);
    return onExecute.apply(this, args);
  };
  return true;
}

/** The first bytes of the request being received, when Node has not parsed its head. */
export function connectionHead(socket: Socket): Buffer | undefined {
  return inRequest.has(socket) ? undefined : heads.get(socket);
}

/** Whether the connection is already being closed by {@link closeLingering}. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Ends the connection after `answer`: half-closes, then reads and discards what the client still sends
 * until it closes its side, LINGER_MAX_BYTES have come, or LINGER_MAX_MS have passed; then destroys it.
 */
export function closeLingering(socket: Socket, answer: string | undefined): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Nothing more goes to Node's parser (it has failed; it would only fail again).
  socket.removeAllListeners('data');
  let discarded = 0;
  // Destroyed once the answer has left (a destroy drops what is still buffered), or at the time limit.
  const finish = () => {
    if (socket.writableFinished || socket.destroyed) destroy();
    else socket.once('finish', destroy);
  };
  const destroy = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(destroy, LINGER_MAX_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) finish();
  });
  socket.once('end', finish);
  socket.once('close', () => clearTimeout(timer));
  if (socket.writable) {
    if (answer !== undefined) socket.end(answer);
    else socket.end();
  }
  // The client has closed its side already: nothing is left to read.
  if (socket.readableEnded) finish();
  else {
    socket.resume();
    startReading(socket);
  }
}

/**
 * Listening to 'data' above took the connection from Node's native parser. When that parser had stopped
 * reading for backpressure (a body no route read), the socket's stream still believes a read is on its
 * way, so resume() alone never reads again. This starts the read as node:http itself does when it
 * resumes a connection it parses (its onSocketResume); `_handle` is internal, hence the checks.
 */
function startReading(socket: Socket): void {
  const handle = (socket as Socket & { _handle?: { reading?: boolean; readStart?: () => number } | null })._handle;
  if (!handle || handle.reading !== false || typeof handle.readStart !== 'function') return;
  handle.reading = true;
  handle.readStart();
}
