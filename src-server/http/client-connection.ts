// What the client-error path needs of a connection that Node's HTTP parser rejected: which request
// failed (its method, and whether its target is under /v1/, decide the error body), and a lingering
// close (so that the answer is not lost to a TCP reset).
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

/** The request the parser failed on, as far as its bytes tell. */
export interface FailedRequest {
  method: string;
  /** The request target (a path, with its query); null when its first line could not be read. */
  target: string | null;
}

/** A message the parser has begun, as seen within one read of its connection. */
interface Message {
  /** Its first byte is in this read (not carried over from an earlier one). */
  began: boolean;
  /** Its head is parsed: the request Node made of it. */
  request: IncomingMessage | null;
  /** Whether its head was parsed before this read began. */
  headBefore: boolean;
  /** Body bytes the parser took from this read. */
  body: number;
}

/** The first bytes of a request whose head is not parsed yet, and the last bytes read. */
interface Pending {
  head: Buffer;
  /** The last bytes of the read that ended inside this head (the blank line may straddle two reads). */
  tail: Buffer;
}

/** What is known of a followed connection. */
interface Followed {
  /** The messages of the current read; the first may be carried over from the previous read. */
  messages: Message[];
  /** The request whose head the last read ended inside of. */
  pending: Pending | null;
  /** The message a parse error was in (null: none that a request line tells), once its read was seen. */
  failure: IncomingMessage | Pending | null | undefined;
}

/** Connections whose messages are followed read by read; only those can say which request failed. */
const connections = new WeakMap<Socket, Followed>();
/** The same, by the parser: the wrappers Node's parser calls know only it. */
const parsers = new WeakMap<object, Followed>();
const lingering = new WeakSet<Socket>();

/** What node:http keeps on a server connection's socket: its HTTP parser (internal). */
interface NodeHttpParser {
  constructor: Partial<Record<'kOnMessageBegin' | 'kOnHeadersComplete' | 'kOnBody' | 'kOnExecute', unknown>>;
  getCurrentBuffer?: () => Buffer;
  incoming?: IncomingMessage | null;
  [slot: number]: unknown;
}

/**
 * Follows every connection of `server` message by message, so that a parse error can be pinned on the
 * request it belongs to, even on a kept-alive connection whose read holds the end of an earlier
 * request's body, whole requests and then the failing one. Also makes every close the server starts
 * after an answer (`Connection: close`, e.g. a 413 before the body is read) a lingering one.
 */
export function followConnections(server: Server): void {
  server.on('connection', (socket: Socket) => {
    follow(socket);
    // Node closes a connection after an answer with socket.destroySoon(): a reset when the client is
    // still sending the body the route never read.
    socket.destroySoon = () => closeLingering(socket, undefined);
  });
}

/** Marks a parser callback already wrapped here, and keeps the one it wraps. */
const WRAPPED = Symbol('kikitori.wrapped');
type Callback = ((...args: unknown[]) => unknown) & { [WRAPPED]?: true };

/**
 * Wraps the parser's callbacks, leaving the parsing where Node does it, in C++: listening to 'data'
 * would make Node parse the connection from JavaScript instead, which cost about 25 µs of CPU per
 * request, a third of a cached list request (decision 0039, bench:cluster). The callbacks are internals
 * of node:http, not public API, so this checks they are there and follows nothing when they are not (the
 * error handler then reads the failed read alone); test/integration/server/router-errors.test.ts fails
 * if a Node release changes their meaning.
 *
 * Per read, Node calls kOnMessageBegin at the first byte of each message, kOnHeadersComplete when its
 * head is parsed, kOnBody with its body bytes, and kOnExecute once the read is parsed (or failed), when
 * getCurrentBuffer() copies the read. Only a read that ends inside a head, or fails, is copied.
 *
 * Node reuses parsers from connection to connection (and for its HTTP client), setting kOnMessageBegin
 * and kOnExecute afresh each time but keeping kOnHeadersComplete and kOnBody: those are wrapped once per
 * parser and find the connection's state through the parser; the state is dropped at the close.
 */
function follow(socket: Socket): void {
  const parser = (socket as Socket & { parser?: NodeHttpParser }).parser;
  const slots = parser?.constructor;
  const [begin, headers, body, execute] = [slots?.kOnMessageBegin, slots?.kOnHeadersComplete, slots?.kOnBody, slots?.kOnExecute];
  if (!parser || typeof parser.getCurrentBuffer !== 'function' || typeof begin !== 'number' || typeof headers !== 'number' || typeof body !== 'number' || typeof execute !== 'number') return;
  const onExecute = parser[execute];
  if (parser[begin] !== null || typeof parser[headers] !== 'function' || typeof parser[body] !== 'function' || typeof onExecute !== 'function') return;
  // Node's callback takes 9 arguments; named ones spare an array and an apply per request.
  wrapOnce(parser, headers, (original) =>
    function (this: NodeHttpParser, a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown, h: unknown, i: unknown) {
      const result = original.call(this, a, b, c, d, e, f, g, h, i);
      const message = parsers.get(this)?.messages.at(-1);
      if (message) message.request = this.incoming ?? null;
      return result;
    },
  );
  wrapOnce(parser, body, (original) =>
    function (this: NodeHttpParser, chunk: unknown) {
      const message = parsers.get(this)?.messages.at(-1);
      if (message && Buffer.isBuffer(chunk)) message.body += chunk.length;
      return original.call(this, chunk);
    },
  );
  const currentBuffer = parser.getCurrentBuffer.bind(parser);
  const state: Followed = { messages: [], pending: null, failure: undefined };
  connections.set(socket, state);
  parsers.set(parser, state);
  // Unless the parser has moved on to another connection already.
  socket.once('close', () => parsers.get(parser) === state && parsers.delete(parser));
  parser[begin] = () => {
    const { messages } = state;
    // Bounded, should Node ever parse this connection without calling kOnExecute.
    if (messages.length >= 64) messages.splice(0, messages.length - 1);
    messages.push({ began: true, request: null, headBefore: false, body: 0 });
  };
  parser[execute] = function (this: unknown, result: unknown) {
    onRead(state, currentBuffer, result instanceof Error);
    // What the next read begins inside of: the last message, unless it is complete.
    const last = state.messages.at(-1);
    if (last && !last.request?.complete) state.messages = [{ began: false, request: last.request, headBefore: last.request !== null, body: 0 }];
    else state.messages.length = 0;
    return (onExecute as Callback).call(this, result);
  };
}

function wrapOnce(parser: NodeHttpParser, slot: number, wrap: (original: Callback) => Callback): void {
  const current = parser[slot] as Callback;
  if (current[WRAPPED]) return;
  const wrapped = wrap(current);
  wrapped[WRAPPED] = true;
  parser[slot] = wrapped;
}

/** After Node has parsed a read: keeps the first bytes of a head it ends inside of, or notes the failed message. */
function onRead(state: Followed, read: () => Buffer, failed: boolean): void {
  const last = state.messages.at(-1);
  if (last?.request) {
    state.pending = null;
    // An error after a head is in that request's body; after a whole request, in bytes that began no
    // message (the parser calls kOnMessageBegin for anything else).
    if (failed) state.failure = last.request.complete ? null : last.request;
    return;
  }
  if (!last) {
    if (failed) state.failure = null;
    return;
  }
  // The read ends inside a head (or fails in one).
  const bytes = read();
  const tail = Buffer.from(bytes.subarray(-3));
  const pending = state.pending;
  if (last.began) {
    const start = messageStart(bytes, state.messages, pending?.tail);
    state.pending = { head: start === null ? Buffer.alloc(0) : Buffer.from(bytes.subarray(start, start + HEAD_BYTES)), tail };
  } else if (pending) {
    if (pending.head.length < HEAD_BYTES) pending.head = Buffer.concat([pending.head, bytes.subarray(0, HEAD_BYTES - pending.head.length)]);
    pending.tail = tail;
  } else state.pending = { head: Buffer.alloc(0), tail };
  if (failed) state.failure = state.pending;
}

/**
 * Where the last message of a read begins in it: after the body of the message the read began inside
 * of, then each whole message (its head up to the blank line, then its body), as the parser took them.
 * Null when that cannot be known: a chunked body the read began inside of (its framing is not counted).
 */
function messageStart(bytes: Buffer, messages: Message[], tailBefore: Buffer | undefined): number | null {
  let at = 0;
  for (const message of messages.slice(0, -1)) {
    if (!message.headBefore) {
      const headEnd = message.began ? blankLineEnd(bytes, at) : straddlingBlankLineEnd(bytes, tailBefore);
      if (headEnd === null) return null;
      at = headEnd;
    }
    if (isChunked(message.request)) {
      if (message.headBefore) return null;
      const end = chunkedBodyEnd(bytes, at);
      if (end === null) return null;
      at = end;
    } else at += message.body;
  }
  return at;
}

function blankLineEnd(bytes: Buffer, from: number): number | null {
  const at = bytes.indexOf('\r\n\r\n', from, 'latin1');
  return at < 0 ? null : at + 4;
}

/** The end of a head that began in an earlier read: its blank line may have begun in that read's last bytes. */
function straddlingBlankLineEnd(bytes: Buffer, tailBefore: Buffer | undefined): number | null {
  if (tailBefore) {
    const joined = Buffer.concat([tailBefore, bytes.subarray(0, 3)]);
    const at = joined.indexOf('\r\n\r\n', 0, 'latin1');
    if (at >= 0 && at < tailBefore.length) return at + 4 - tailBefore.length;
  }
  return blankLineEnd(bytes, 0);
}

function isChunked(request: IncomingMessage | null): boolean {
  return request?.headers['transfer-encoding'] !== undefined;
}

/** The end of a chunked body that begins at `from` (and that the parser accepted whole). */
function chunkedBodyEnd(bytes: Buffer, from: number): number | null {
  let at = from;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return null;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isSafeInteger(size)) return null;
    at = lineEnd + 2;
    if (size === 0) break;
    at += size + 2;
  }
  // Trailer fields, then the blank line.
  if (bytes.subarray(at, at + 2).toString('latin1') === '\r\n') return at + 2;
  return blankLineEnd(bytes, at);
}

/**
 * The request a client error on this connection is about: the one a parse error was in, else the one
 * being received (a timeout). Read from its first bytes, or from the request Node made of its head when
 * the error is in its body. Null when no request is known or its first bytes are no request line;
 * undefined when the connection is not followed (Node's internals changed).
 */
export function failedRequest(socket: Socket): FailedRequest | null | undefined {
  const state = connections.get(socket);
  if (!state) return undefined;
  const incoming = (socket as Socket & { parser?: NodeHttpParser | null }).parser?.incoming;
  const failure = state.failure !== undefined ? state.failure : (state.pending ?? (incoming && !incoming.complete ? incoming : null));
  if (!failure) return null;
  if ('head' in failure) {
    // The parser skips empty lines before a request line.
    const match = /^[\r\n]*([!#$%&'*+.^_`|~0-9A-Za-z-]+) +(\S*)/.exec(failure.head.toString('latin1'));
    return match ? { method: match[1]!.toUpperCase(), target: match[2]!.startsWith('/') ? match[2]! : null } : null;
  }
  return { method: failure.method ?? '', target: failure.url ?? null };
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
