// What the client-error path keeps of a connection, on a real node:http server: the first bytes of the
// request being received, per request on a kept-alive connection, without taking the parsing away from
// Node's native parser (a 'data' listener would, at about 25 µs of CPU per request: decision 0039).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectionHead, rememberConnectionHeads } from '../../../../src-server/http/client-connection.js';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(onRequest: http.RequestListener): Promise<{ port: number; sockets: net.Socket[] }> {
  const server = http.createServer(onRequest);
  rememberConnectionHeads(server);
  const sockets: net.Socket[] = [];
  server.on('connection', (socket: net.Socket) => sockets.push(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets };
}

describe('rememberConnectionHeads', () => {
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

  it('keeps the first bytes of a request whose head is not parsed yet, afresh after each answer', async () => {
    const { port, sockets } = await serve((_request, response) => response.end('ok'));
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    await expect.poll(() => sockets.length).toBe(1);
    const serverSide = sockets[0];
    socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise((resolve) => socket.once('data', resolve));
    // The next request's head arrives in parts; Node has not parsed it yet.
    socket.write('POST /v1/audio/transcriptions?x=');
    await expect.poll(() => connectionHead(serverSide!)?.toString('latin1')).toBe('POST /v1/audio/transcriptions?x=');
    socket.write('a'.repeat(300));
    await expect.poll(() => connectionHead(serverSide!)?.length).toBe(256);
    expect(connectionHead(serverSide!)!.toString('latin1')).toMatch(/^POST \/v1\/audio\/transcriptions\?x=a+$/);
    socket.destroy();
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
