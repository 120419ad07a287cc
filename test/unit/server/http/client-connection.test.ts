// What the server does with a connection whose request it answers before reading all of it, on a real
// node:http server: which request line the bytes Node's parser failed on begin with (error.rawPacket is
// the whole read the error is in, wherever that read began on a kept-alive connection), and the
// discarding of a body a route refused before reading it, without taking the parsing away from Node's
// native parser (a 'data' listener would, at about 25 µs of CPU per request: decision 0039).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discardUnreadBody,
  LINGER_MAX_BYTES,
  type RequestLine,
  rawRequestLine,
} from '../../../../src-server/http/client-connection.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(onRequest: http.RequestListener): Promise<{ port: number; failures: (RequestLine | null)[] }> {
  const server = http.createServer(onRequest);
  const failures: (RequestLine | null)[] = [];
  server.on('clientError', (error: Error & { rawPacket?: unknown }, socket: net.Socket) => {
    failures.push(rawRequestLine(error.rawPacket));
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, failures };
}

/** A raw connection: write parts, each once the answers to the requests before it have come. */
async function connect(
  port: number,
): Promise<{ socket: net.Socket; answers: () => number; send: (bytes: string) => void }> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return {
    socket,
    answers: () => received.split('HTTP/1.1 ').length - 1,
    send: (bytes) => socket.write(Buffer.from(bytes, 'latin1')),
  };
}

const GOOD = 'GET /whole HTTP/1.1\r\nHost: x\r\n\r\n';
const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('rawRequestLine', () => {
  it('reads the first line only, after the empty lines the parser skips', () => {
    expect(rawRequestLine(Buffer.from('\r\n\r\nGET /v1/models?x=a b HTTP/1.1\r\nHost: x\r\n\r\n'))).toEqual({
      method: 'GET',
      target: '/v1/models?x=a',
    });
    expect(
      rawRequestLine(Buffer.from('GET /api/x HTTP/1.1\r\nHost: x\r\n\r\nPOST /v1/audio/transcriptions HTTP/1.1\r\n')),
    ).toEqual({ method: 'GET', target: '/api/x' });
    expect(rawRequestLine(Buffer.from(`HEAD /v1/models?x=${'a'.repeat(20_000)}`))).toEqual({
      method: 'HEAD',
      target: `/v1/models?x=${'a'.repeat(20_000)}`,
    });
    // A line that is no request line, or a target that is not a path.
    expect(rawRequestLine(Buffer.from('aaaa HTTP/1.1\r\n'))).toBeNull();
    expect(rawRequestLine(Buffer.from('NOT HTTP AT ALL\r\n\r\n'))).toBeNull();
    expect(rawRequestLine(Buffer.from('GET\r\n/v1/models HTTP/1.1\r\n'))).toBeNull();
    expect(rawRequestLine(undefined)).toBeNull();
  });
});

describe("the bytes Node's parser failed on, on a kept-alive connection", () => {
  it("leaves the parsing to Node: a connection has Node's own 'data' listener only", async () => {
    const listeners: number[] = [];
    const { port } = await serve((request, response) => {
      listeners.push(request.socket.listenerCount('data'));
      response.end('ok');
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 2; i++) {
      const status = await new Promise<number | undefined>((resolve) =>
        http.get({ port, host: '127.0.0.1', agent, path: '/' }, (r) => (r.resume(), resolve(r.statusCode))),
      );
      expect(status).toBe(200);
    }
    agent.destroy();
    expect(listeners).toEqual([1, 1]);
  });

  it('begin at the failing request when the client sent it after the answer to the one before', async () => {
    const { port, failures } = await serve((_request, response) => response.end('ok'));
    const { socket, answers, send } = await connect(port);
    send('GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(answers).toBe(1);
    send('GET /api/v1/transcriptions?x=a b HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toEqual({ method: 'GET', target: '/api/v1/transcriptions?x=a' });
    socket.destroy();
  });

  it('begin with the requests before it in the same read: their first line is the one read', async () => {
    const { port, failures } = await serve((_request, response) => response.end('ok'));
    const { socket, send } = await connect(port);
    send(`GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\nGET /api/v1/transcriptions?x=a b HTTP/1.1\r\nHost: x\r\n\r\n`);
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toEqual({ method: 'GET', target: '/v1/models' });
    socket.destroy();
  });

  it('begin mid-line for a request line that came in parts: no request line', async () => {
    const { port, failures } = await serve((_request, response) => response.end('ok'));
    const { socket, answers, send } = await connect(port);
    send(GOOD);
    await expect.poll(answers).toBe(1);
    const line = `POST /v1/audio/transcriptions?x=${'a'.repeat(300)}`;
    for (const part of [line.slice(0, 32), line.slice(32), ' HTTP/1.1\r\nBad Header\r\n']) {
      send(part);
      await pause();
    }
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toBeNull();
    socket.destroy();
  });

  it('begin with the rest of a body the route answered before reading, glued to the next request', async () => {
    const { port, failures } = await serve((request, response) => {
      if (request.url === '/early') response.end('refused');
      else request.resume().on('end', () => response.end('ok'));
    });
    const { socket, answers, send } = await connect(port);
    send('PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n0123456789');
    await expect.poll(answers).toBe(1);
    send(
      `0123456789PATCH /v1/audio/x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc${GOOD}HEAD /v1/models HTTP/1.1\r\nBad Header\r\n`,
    );
    await expect.poll(() => failures.length).toBe(1);
    // "0123456789PATCH" is a token, so this reads as a request line; the HEAD it failed on is not known.
    expect(failures[0]).toEqual({ method: '0123456789PATCH', target: '/v1/audio/x' });
    socket.destroy();
  });

  it('begin at a request that began in the same read, and at bytes that begin no request', async () => {
    const { port, failures } = await serve((request, response) => request.resume().on('end', () => response.end('ok')));
    const first = await connect(port);
    // A GET's body sent without framing: the bytes after it are no request, but the read began with the GET.
    first.send(`GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n{"filename":"drill.wav"}`);
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toEqual({ method: 'GET', target: '/v1/models' });
    const second = await connect(port);
    second.send(
      'PUT /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /split HTTP/1.1\r\nHost: x\r\n\r',
    );
    await pause();
    second.send('\nDELETE /v1/files HTTP/1.1\r\nBad Header\r\n');
    await expect.poll(() => failures.length).toBe(2);
    expect(failures[1]).toEqual({ method: 'DELETE', target: '/v1/files' });
    // An error in a body, in the read its head began: that request's line.
    const third = await connect(port);
    third.send('POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    await expect.poll(() => failures.length).toBe(3);
    expect(failures[2]).toEqual({ method: 'POST', target: '/v1/audio/transcriptions' });
    // The same error in a read of its own: no request line.
    const fourth = await connect(port);
    fourth.send('POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n');
    await pause();
    fourth.send('zz\r\n');
    await expect.poll(() => failures.length).toBe(4);
    expect(failures[3]).toBeNull();
    for (const { socket } of [first, second, third, fourth]) socket.destroy();
  });
});

/** Sends a request with a body of `size` bytes, reading nothing until all is sent (or the connection is cut), then reads until the server closes. */
function sendAllThenRead(port: number, size: number): Promise<string> {
  const body = Buffer.alloc(size, 0x41);
  return new Promise<string>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.pause();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('connect', () => {
      socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`);
      socket.write(body, () => {
        socket.end();
        socket.resume();
      });
    });
  });
}

describe('discardUnreadBody', () => {
  it('reads and discards the rest of a body the route began to read, then stopped, and answered early', async () => {
    // The route reads a first part, stops (a quota check that fails, say) and answers after a while:
    // meanwhile the unread body stops Node's parser for backpressure, and Node does not discard a body
    // that was being read. It is discarded here, so the client that reads only after sending everything
    // gets the answer rather than a connection that stalls, or a reset.
    const { port } = await serve((request, response) => {
      request.once('data', () => {
        request.pause();
        setTimeout(() => {
          discardUnreadBody(request);
          response.writeHead(413, { 'content-type': 'text/plain', 'content-length': 9 });
          response.end('too large');
        }, 200);
      });
    });
    const answer = await sendAllThenRead(port, 9 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.endsWith('too large')).toBe(true);
  });

  it(`stops discarding after ${LINGER_MAX_BYTES / 1024 / 1024} MiB: the connection is then closed`, async () => {
    const read: number[] = [];
    const { port } = await serve((request, response) => {
      request.socket.once('close', () => read.push(request.socket.bytesRead));
      discardUnreadBody(request);
      response.writeHead(413, { 'content-type': 'text/plain', 'content-length': 9 });
      response.end('too large');
    });
    const answer = await sendAllThenRead(port, 4 * LINGER_MAX_BYTES);
    // Node alone would read all 128 MiB and keep the connection.
    await expect.poll(() => read.length).toBe(1);
    expect(read[0]).toBeLessThan(2 * LINGER_MAX_BYTES);
    expect(answer.length).toBeLessThan(1000);
  });
});
