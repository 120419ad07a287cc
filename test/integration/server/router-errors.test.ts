// What the router and Node's HTTP parser answer themselves (405, 413, 414, 415, 431, malformed URLs and
// requests, pages past a safe integer), over a listening server: the spec's error body every time.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { startTestServer, toApiResponse, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme');
});
afterAll(() => server.close());

const errorBody = (code: number) => ({
  error_id: expect.any(String),
  error_code: code,
  error_message: expect.any(String),
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function rawRequest(bytes: string): Promise<{ status: number; headers: string; body: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        headers: head,
        body,
        json: body ? (JSON.parse(body) as unknown) : undefined,
      });
    });
  });
}

describe('router-level errors carry the spec body', () => {
  it('answers a known path with another method with 405 and Allow', async () => {
    const response = await server.api(key, 'PATCH', '/api/v1/dictionaries');
    expect(response.status).toBe(405);
    expect(response.json).toEqual(errorBody(ErrorCode.METHOD_NOT_ALLOWED));
    expect(response.headers.get('allow')).toContain('GET');
    expect(response.headers.get('allow')).toContain('POST');
    const withId = await server.api(key, 'PUT', '/api/v1/transcriptions/abc');
    expect(withId.status).toBe(405);
    expect(withId.headers.get('allow')).toContain('DELETE');
  });

  it('still answers an unknown path with 404', async () => {
    const response = await server.api(key, 'PATCH', '/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(response.json).toEqual(errorBody(ErrorCode.ROUTE_NOT_FOUND));
  });

  it('answers a path parameter over the length limit with 414', async () => {
    const response = await server.api(key, 'GET', `/api/v1/transcriptions/${'a'.repeat(500)}`);
    expect(response.status).toBe(414);
    expect(response.json).toEqual(errorBody(ErrorCode.URI_TOO_LONG));
  });

  it('answers a path with a bad percent-escape with 400', async () => {
    const response = await server.api(key, 'GET', '/api/v1/transcriptions/%zz');
    expect(response.status).toBe(400);
    expect(response.json).toEqual(errorBody(ErrorCode.MALFORMED_URL));
  });

  it('answers a JSON body over the limit with 413', async () => {
    const response = await server.api(
      key,
      'POST',
      '/api/v1/dictionaries',
      JSON.stringify({ name: 'x'.repeat(9 * 1024 * 1024) }),
    );
    expect(response.status).toBe(413);
    expect(response.json).toEqual(errorBody(ErrorCode.PAYLOAD_TOO_LARGE));
  });

  it('answers a non-JSON body with 415', async () => {
    const response = await toApiResponse(
      await fetch(`${server.url}/api/v1/dictionaries`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/xml' },
        body: '<a/>',
      }),
    );
    expect(response.status).toBe(415);
    expect(response.json).toEqual(errorBody(ErrorCode.UNSUPPORTED_MEDIA_TYPE));
  });

  it('answers a request line over the HTTP parser limit with 431 from the parser', async () => {
    const response = await rawRequest(
      `GET /api/v1/transcriptions?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.json).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
  });

  it('answers bytes that are not HTTP with 400 from the parser', async () => {
    const response = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.json).toEqual(errorBody(ErrorCode.MALFORMED_REQUEST));
  });

  it('answers a page beyond a safe integer with 400 INVALID_PAGE, never 500', async () => {
    for (const page of ['1e309', '99999999999999999999', '9007199254740992', '-1', '1.5', 'abc']) {
      for (const list of ['/api/v1/transcriptions', '/api/v1/dictionaries']) {
        const response = await server.api(key, 'GET', `${list}?page=${page}`);
        expect(response.status, `${list}?page=${page}`).toBe(400);
        expect(response.json).toMatchObject({ ...errorBody(ErrorCode.INVALID_PAGE), field: 'page' });
      }
    }
  });

  it('answers the largest safe page with an empty list', async () => {
    for (const list of ['/api/v1/transcriptions', '/api/v1/dictionaries']) {
      const response = await server.api(key, 'GET', `${list}?page=${Number.MAX_SAFE_INTEGER}`);
      expect(response.status, list).toBe(200);
      expect(response.json).toEqual([]);
    }
  });
});

// Found by `npm run drill`: what the parser rejects was always answered in the spec's body, even under
// /v1/ where clients read OpenAI's, and with a body after HEAD (clients then fail to parse the answer).
describe("the parser's own errors under /v1/ and after HEAD", () => {
  const openAiBody = (code: string, type: string) => ({
    error: { message: expect.any(String), type, param: null, code, error_id: expect.any(String) },
  });

  it("answers headers over the limit on a /v1/ route in OpenAI's error body", async () => {
    const response = await rawRequest(
      `POST /v1/audio/transcriptions HTTP/1.1\r\nHost: localhost\r\nX-Huge: ${'h'.repeat(40_000)}\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.json).toEqual(openAiBody('headers_too_large', 'invalid_request_error'));
  });

  it("answers a malformed request to /v1/models in OpenAI's error body", async () => {
    const response = await rawRequest('GET /v1/models?x=a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.json).toEqual(openAiBody('malformed_request', 'invalid_request_error'));
  });

  it('keeps the spec body for the same error outside /v1/', async () => {
    const response = await rawRequest('GET /v1x/models?x=a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(response.status).toBe(400);
    expect(response.json).toEqual(errorBody(ErrorCode.MALFORMED_REQUEST));
  });

  it('answers a HEAD the parser rejects with the status and headers only', async () => {
    const response = await rawRequest(
      `HEAD /api/v1/transcriptions?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expect(response.status).toBe(431);
    expect(response.headers).toMatch(/content-type: application\/json/i);
    expect(response.body).toBe('');
  });
});

/** A raw kept-alive connection: `next()` is the next whole answer (its head, and Content-Length bytes of body). */
async function keptAlive(): Promise<{
  socket: net.Socket;
  next: () => Promise<{ status: number; headers: string; json: unknown }>;
  /** Resolves once the server has closed, with what came after the answers taken by next(). */
  closed: Promise<() => string>;
}> {
  const { hostname, port } = new URL(server.url);
  const socket = net.connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => undefined);
  const closed = new Promise<() => string>((resolve) =>
    socket.on('close', () => resolve(() => received.toString('latin1'))),
  );
  await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
  const next = async () => {
    for (;;) {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = end < 0 ? undefined : /^content-length: (\d+)/im.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)) {
        const headers = text.slice(0, end);
        const body = received.subarray(end + 4, end + 4 + Number(length)).toString('utf8');
        received = received.subarray(end + 4 + Number(length));
        return {
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]),
          headers,
          json: body ? (JSON.parse(body) as unknown) : undefined,
        };
      }
      if (socket.destroyed) throw new Error(`connection closed with ${received.length} bytes of an answer`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { socket, next, closed };
}

// Decision 0048: what the parser rejects is answered by the first line of the read it failed in. A
// client that waits for each answer before its next request sends each request in a read of its own.
describe('the parser rejects a request on a kept-alive connection', () => {
  const openAiBody = (code: string) => ({
    error: {
      message: expect.any(String),
      type: 'invalid_request_error',
      param: null,
      code,
      error_id: expect.any(String),
    },
  });

  it("answers by the failing request's own line, not by the /v1/ request before it", async () => {
    const connection = await keptAlive();
    connection.socket.write(`GET /v1/models HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    expect((await connection.next()).status).toBe(200);
    connection.socket.write('GET /api/v1/transcriptions?x=a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const rejected = await connection.next();
    expect(rejected.status).toBe(400);
    expect(rejected.json).toEqual(errorBody(ErrorCode.MALFORMED_REQUEST));
    connection.socket.destroy();
  });

  it('answers a malformed request that came in the same read as the end of a body refused before it was read', async () => {
    const connection = await keptAlive();
    connection.socket.write(
      'POST /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: kk_not_a_key\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n',
    );
    expect((await connection.next()).status).toBe(401);
    connection.socket.write('{"a":"bc"}GET /api/v1/transcriptions?x=a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const rejected = await connection.next();
    expect(rejected.status).toBe(400);
    expect(rejected.json).toEqual(errorBody(ErrorCode.MALFORMED_REQUEST));
    connection.socket.destroy();
  });

  it('gives no second answer to an error in the body of a request answered before its body was read', async () => {
    const connection = await keptAlive();
    connection.socket.write(
      'POST /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: kk_not_a_key\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    expect((await connection.next()).status).toBe(401);
    connection.socket.write('zz\r\n');
    const rest = await connection.closed;
    expect(rest()).toBe('');
  });

  it("answers a malformed /v1/ request after a spec request in OpenAI's body", async () => {
    const connection = await keptAlive();
    connection.socket.write(`GET /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\n\r\n`);
    expect((await connection.next()).status).toBe(200);
    connection.socket.write('GET /v1/models?x=a b HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const rejected = await connection.next();
    expect(rejected.status).toBe(400);
    expect(rejected.json).toEqual(openAiBody('malformed_request'));
    connection.socket.destroy();
  });
});

/**
 * Sends `parts` one after another (waiting `pauseMs` between them, so that the server reads them apart),
 * then half-closes, and reads the answer. With `readAfterSending`, it reads nothing until it has sent
 * everything, as many HTTP clients do: a server that closes with request bytes unread then sends a TCP
 * reset, which discards the answer waiting unread here (the answer is then empty).
 */
function rawExchange(
  parts: (string | Buffer)[],
  pauseMs = 0,
  readAfterSending = false,
): Promise<{ status: number; body: string; json: unknown }> {
  return new Promise((resolve) => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    if (readAfterSending) socket.pause();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      let json: unknown;
      try {
        json = body ? (JSON.parse(body) as unknown) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body, json });
    });
    socket.on('connect', () => {
      void (async () => {
        for (const [index, part] of parts.entries()) {
          if (index > 0 && pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
          if (socket.destroyed) return;
          await new Promise<void>((done) => socket.write(part, () => done()));
        }
        if (!socket.destroyed) socket.end();
        socket.resume();
      })().catch(() => undefined);
    });
  });
}

// Found by `npm run drill` (fuzz): a request line over 16 KiB followed by a 9 MiB body sometimes got no
// answer: the server wrote its 431 and closed with request bytes unread, which is a TCP reset that can
// discard the answer before the client reads it. The server now reads and discards what is still coming.
describe('the parser rejects a request while its body is still coming', () => {
  it('answers 431 every time to a request line over the limit followed by a 9 MiB body', async () => {
    const body = Buffer.alloc(9 * 1024 * 1024, 0x41);
    for (let attempt = 0; attempt < 5; attempt++) {
      const head = `PUT /api/v1/dictionaries?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const response = await rawExchange([head, body], 0, true);
      expect(response.status, `attempt ${attempt}`).toBe(431);
      expect(response.json).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
    }
  });

  it("answers a /v1/ request line over the limit followed by a large body in OpenAI's body", async () => {
    const body = Buffer.alloc(9 * 1024 * 1024, 0x41);
    const head = `POST /v1/audio/transcriptions?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${body.length}\r\n\r\n`;
    const response = await rawExchange([head, body], 0, true);
    expect(response.status).toBe(431);
    expect(response.json).toMatchObject({ error: { code: 'headers_too_large', type: 'invalid_request_error' } });
  });

  // Decision 0048: the parser fails on a later read, which begins mid-line. The request has no
  // trustworthy target, so it gets the spec's body even under /v1/, and a body even after HEAD.
  it("answers a request line split across reads in the spec's body, even under /v1/: the failing read begins mid-line", async () => {
    const response = await rawExchange(
      [
        'POST /v1/audio/transcriptions?x=',
        'a'.repeat(8_000),
        `${'a'.repeat(12_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      ],
      150,
    );
    expect(response.status).toBe(431);
    expect(response.json).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
  });

  it('keeps the spec body for a long split request line outside /v1/, and answers a split HEAD with a body (its method is not known)', async () => {
    const spec = await rawExchange(
      ['GET /api/v1/transcriptions?x=', 'a'.repeat(8_000), `${'a'.repeat(12_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
      150,
    );
    expect(spec.status).toBe(431);
    expect(spec.json).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
    const head = await rawExchange(
      ['HEAD /v1/models?x=', 'a'.repeat(8_000), `${'a'.repeat(12_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
      150,
    );
    expect(head.status).toBe(431);
    expect(head.json).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
  });

  it('answers a JSON body over the limit with 413 to a client that reads only after sending it all', async () => {
    // The route answers before the body has all arrived and discards the rest (decision 0048); the client must
    // still read the 413, whatever Node does with the connection afterwards.
    const body = Buffer.alloc(9 * 1024 * 1024, 0x41);
    for (let attempt = 0; attempt < 3; attempt++) {
      const head = `POST /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const response = await rawExchange([head, body], 0, true);
      expect(response.status, `attempt ${attempt}`).toBe(413);
      expect(response.json).toEqual(errorBody(ErrorCode.PAYLOAD_TOO_LARGE));
    }
  });

  it("answers a /v1/ request line split across reads in the spec's body on a kept-alive connection too", async () => {
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(`GET /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\n\r\n`);
    // The first answer, whole: its head and Content-Length bytes of body.
    const firstLength = () => {
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text)?.[1];
      return end >= 0 && length !== undefined && received.length >= end + 4 + Number(length)
        ? end + 4 + Number(length)
        : null;
    };
    while (firstLength() === null) await new Promise((resolve) => setTimeout(resolve, 20));
    const first = firstLength()!;
    expect(received.subarray(0, 12).toString('latin1')).toBe('HTTP/1.1 200');
    for (const part of [
      'POST /v1/audio/transcriptions?x=',
      'a'.repeat(8_000),
      `${'a'.repeat(12_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    ]) {
      await new Promise((resolve) => setTimeout(resolve, 150));
      socket.write(part);
    }
    await closed;
    const second = received.subarray(first).toString('utf8');
    expect(second).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(second.split('\r\n\r\n')[1]!)).toEqual(errorBody(ErrorCode.HEADERS_TOO_LARGE));
  });

  it('keeps the connection after refusing a body before reading it: the body is discarded, and the next request is served', async () => {
    const connection = await keptAlive();
    const body = Buffer.alloc(9 * 1024 * 1024, 0x41);
    connection.socket.write(
      `POST /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    connection.socket.write(body);
    const refused = await connection.next();
    expect(refused.status).toBe(413);
    expect(refused.headers).not.toMatch(/^connection: close/im);
    expect(refused.json).toEqual(errorBody(ErrorCode.PAYLOAD_TOO_LARGE));
    connection.socket.write(`GET /api/v1/dictionaries HTTP/1.1\r\nHost: localhost\r\nX-API-KEY: ${key}\r\n\r\n`);
    expect((await connection.next()).status).toBe(200);
    connection.socket.destroy();
  });

  it('still serves ordinary requests after answering them', async () => {
    const response = await server.api(key, 'GET', '/api/v1/dictionaries');
    expect(response.status).toBe(200);
  });
});
