// What the client-error path needs of a connection that Node's HTTP parser rejected: the first bytes
// the client sent (to answer a /v1/ request in OpenAI's body when the parser fails on a later chunk of a
// very long request line), and a lingering close (so that the answer is not lost to a TCP reset).
import type { Server } from 'node:http';
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
const served = new WeakSet<Socket>();
const lingering = new WeakSet<Socket>();

/**
 * Keeps the first bytes of every connection until a request on it has been parsed. Listening to 'data'
 * makes Node feed the parser from JavaScript instead of natively; the listener leaves once it has the bytes.
 */
export function rememberConnectionHeads(server: Server): void {
  server.on('request', (request: { socket: Socket }) => {
    served.add(request.socket);
    heads.delete(request.socket);
  });
  server.on('connection', (socket: Socket) => {
    const capture = (chunk: Buffer) => {
      if (served.has(socket)) {
        socket.removeListener('data', capture);
        return;
      }
      const head = Buffer.concat([heads.get(socket) ?? Buffer.alloc(0), chunk.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      heads.set(socket, head);
      if (head.length >= HEAD_BYTES) socket.removeListener('data', capture);
    };
    socket.on('data', capture);
  });
}

/** The first bytes of the connection, when no request on it has been parsed yet. */
export function connectionHead(socket: Socket): Buffer | undefined {
  return served.has(socket) ? undefined : heads.get(socket);
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
  lingering.add(socket);
  // Nothing more goes to Node's parser (it has failed; it would only fail again).
  socket.removeAllListeners('data');
  let discarded = 0;
  const finish = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(finish, LINGER_MAX_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) finish();
  });
  socket.once('end', finish);
  socket.once('close', () => clearTimeout(timer));
  if (answer !== undefined && socket.writable) socket.end(answer);
  else socket.end();
  socket.resume();
}
