// What the client-error path knows of a connection, on a real node:http server: which request a parse
// error is in, on a kept-alive connection whose reads mix the end of one request, whole requests and the
// failing one, without taking the parsing away from Node's native parser (a 'data' listener would, at
// about 25 µs of CPU per request: decision 0039).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type FailedRequest, failedRequest, followConnections } from '../../../../src-server/http/client-connection.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(onRequest: http.RequestListener): Promise<{ port: number; sockets: net.Socket[]; failures: (FailedRequest | null | undefined)[] }> {
  const server = http.createServer(onRequest);
  followConnections(server);
  const sockets: net.Socket[] = [];
  const failures: (FailedRequest | null | undefined)[] = [];
  server.on('connection', (socket: net.Socket) => sockets.push(socket));
  server.on('clientError', (_error: Error, socket: net.Socket) => {
    failures.push(failedRequest(socket));
    socket.destroy();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets, failures };
}

/** A raw connection: write parts, each once the answers to the requests before it have come. */
async function connect(port: number): Promise<{ socket: net.Socket; answers: () => number; send: (bytes: string) => void }> {
  const socket = net.connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return { socket, answers: () => received.split('HTTP/1.1 ').length - 1, send: (bytes) => socket.write(Buffer.from(bytes, 'latin1')) };
}

const GOOD = 'GET /whole HTTP/1.1\r\nHost: x\r\n\r\n';

describe('followConnections', () => {
  it("leaves the parsing to Node: a connection has Node's own 'data' listener only", async () => {
    const listeners: number[] = [];
    const { port } = await serve((request, response) => {
      listeners.push(request.socket.listenerCount('data'));
      response.end('ok');
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 2; i++) {
      const status = await new Promise<number | undefined>((resolve) => http.get({ port, host: '127.0.0.1', agent, path: '/' }, (r) => (r.resume(), resolve(r.statusCode))));
      expect(status).toBe(200);
    }
    agent.destroy();
    expect(listeners).toEqual([1, 1]);
  });

  it('names a request whose line came in parts, after an answer on the same connection', async () => {
    const { port, failures } = await serve((_request, response) => response.end('ok'));
    const { socket, answers, send } = await connect(port);
    send(GOOD);
    await expect.poll(answers).toBe(1);
    const line = `POST /v1/audio/transcriptions?x=${'a'.repeat(300)}`;
    for (const part of [line.slice(0, 32), line.slice(32), ' HTTP/1.1\r\nBad Header\r\n']) {
      send(part);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await expect.poll(() => failures.length).toBe(1);
    // The first 256 bytes are kept: enough to read the method and whether the target is under /v1/.
    expect(failures[0]).toEqual({ method: 'POST', target: line.slice('POST '.length, 256) });
    socket.destroy();
  });

  it('names the failing request when one read holds the rest of an answered body, a whole request and then it', async () => {
    // The route answers before reading the body; the client goes on sending it, then two requests.
    const { port, failures } = await serve((request, response) => {
      if (request.url === '/early') response.end('refused');
      else request.resume().on('end', () => response.end('ok'));
    });
    const { socket, answers, send } = await connect(port);
    send('PUT /early HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\n\r\n0123456789');
    await expect.poll(answers).toBe(1);
    send(`0123456789PATCH /v1/audio/x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc${GOOD}HEAD /v1/models HTTP/1.1\r\nBad Header\r\n`);
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toEqual({ method: 'HEAD', target: '/v1/models' });
    socket.destroy();
  });

  it('names the failing request after a chunked one in the same read, and a head whose blank line straddles two reads', async () => {
    const { port, failures } = await serve((request, response) => request.resume().on('end', () => response.end('ok')));
    const { socket, send } = await connect(port);
    send('PUT /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nGET /split HTTP/1.1\r\nHost: x\r\n\r');
    await new Promise((resolve) => setTimeout(resolve, 50));
    send('\nDELETE /v1/files HTTP/1.1\r\nBad Header\r\n');
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toEqual({ method: 'DELETE', target: '/v1/files' });
    socket.destroy();
  });

  it('names no request for bytes after a whole request that begin none, and the request itself for an error in its body', async () => {
    const { port, failures } = await serve((request, response) => request.resume().on('end', () => response.end('ok')));
    const first = await connect(port);
    // A GET's body sent without framing: the bytes after it are no request.
    first.send(`GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n{"filename":"drill.wav"}`);
    await expect.poll(() => failures.length).toBe(1);
    expect(failures[0]).toBeNull();
    const second = await connect(port);
    second.send('POST /v1/audio/transcriptions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    await expect.poll(() => failures.length).toBe(2);
    expect(failures[1]).toEqual({ method: 'POST', target: '/v1/audio/transcriptions' });
    first.socket.destroy();
    second.socket.destroy();
  });

  it('reads and discards what the client still sends after an early answer, though the parser had stopped reading', async () => {
    // The route answers without reading the body, after a while (a slow key lookup): meanwhile the
    // unread body stops Node's parser for backpressure. The close lingers, so the client that reads only
    // after sending everything still gets the answer rather than a reset.
    const { port } = await serve((_request, response) => {
      setTimeout(() => {
        response.writeHead(413, { connection: 'close', 'content-type': 'text/plain', 'content-length': 9 });
        response.end('too large');
      }, 200);
    });
    const body = Buffer.alloc(9 * 1024 * 1024, 0x41);
    const answer = await new Promise<string>((resolve) => {
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
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.endsWith('too large')).toBe(true);
  });
});
