// What the server does with a connection whose request it answers before reading all of it: a request
// Node's HTTP parser rejected (the client-error path), and a request refused before its body was read
// (a 413, a quota refusal). Both keep reading and discarding what the client still sends, bounded, so
// that the answer is not lost to a TCP reset (decision 0037). Nothing of Node's parser is wrapped or
// replaced: parsing stays in Node, and which body shape a rejected request gets is read from the bytes
// the parser failed on (decision 0048).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * After answering a request early, the server keeps reading (and discarding) what the client still
 * sends, at most this many bytes and for at most this long, so that the close is not a reset that
 * discards the answer before the client reads it (RFC 9112 section 9.6).
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;

/** The method and target of a request line. */
export interface RequestLine {
  method: string;
  /** The request target in origin form (a path, with its query). */
  target: string;
}

const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\/\S*)/;

/**
 * The request line that the bytes Node's parser failed on begin with (`error.rawPacket`: the whole read
 * the error is in), or null when their first line is no request line. That read is not always the
 * failing request's: on a kept-alive connection it can begin with requests the parser accepted, or in
 * the middle of a request line longer than one read, or of a body. A rejected request has no trustworthy
 * target, so this first line only chooses the error body's shape (decision 0048).
 */
export function rawRequestLine(rawPacket: unknown): RequestLine | null {
  if (!Buffer.isBuffer(rawPacket)) return null;
  // The parser skips empty lines before a request line.
  let start = 0;
  while (start < rawPacket.length && (rawPacket[start] === 0x0d || rawPacket[start] === 0x0a)) start++;
  const end = rawPacket.indexOf(0x0a, start);
  const match = REQUEST_LINE.exec(rawPacket.subarray(start, end < 0 ? undefined : end).toString('latin1'));
  return match ? { method: match[1]!.toUpperCase(), target: match[2]! } : null;
}

/** Connections closed by {@link closeLingering}. */
const lingering = new WeakSet<Socket>();
/** The last request on a connection whose body {@link discardUnreadBody} discards. */
const discarding = new WeakMap<Socket, IncomingMessage>();

/** Whether the connection is being closed after an answer to a client error. */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Whether the connection's current request was answered before its body was read, and its body is still
 * coming: a client error now is in that body (or its timeout), and has had its answer. An error in a
 * later request on the connection, even one in the same read as the body's end, is that request's.
 */
export function isAnsweredEarly(socket: Socket): boolean {
  const request = discarding.get(socket);
  return request !== undefined && !request.complete;
}

/**
 * The client-error path: ends the connection after `answer`. Half-closes, then reads and discards what
 * the client still sends until it closes its side, LINGER_MAX_BYTES have come, or LINGER_MAX_MS have
 * passed; then destroys it.
 */
export function closeLingering(socket: Socket, answer: string | undefined): void {
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Nothing more goes to Node's parser: it has failed (or timed out) on this connection and would only
  // fail again. A 'data' listener of our own then reads the socket from JavaScript.
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
  else socket.resume();
}

/**
 * A request answered before its body was read (a 413, a quota refusal): the rest of the body is read
 * and discarded through the request itself, so that the connection is not closed with bytes unread (a
 * reset that can discard the answer). Such answers keep the connection (no `Connection: close`): when
 * the body has come, the connection serves the next request. A body still coming after
 * LINGER_MAX_BYTES or LINGER_MAX_MS ends in a destroy.
 */
export function discardUnreadBody(request: IncomingMessage): void {
  const socket = request.socket;
  if (request.complete || request.destroyed || discarding.get(socket) === request) return;
  discarding.set(socket, request);
  let discarded = 0;
  const done = () => {
    clearTimeout(timer);
    socket.off('close', done);
  };
  const cut = () => {
    done();
    socket.destroy();
  };
  const timer = setTimeout(cut, LINGER_MAX_MS);
  timer.unref();
  request.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_MAX_BYTES) cut();
  });
  request.once('end', done);
  socket.once('close', done);
  // Away from whatever read part of it (storage, stopped at a limit), and also when Node's parser had
  // stopped reading for backpressure: resuming the request restarts it.
  request.unpipe();
  request.resume();
}
