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
});
