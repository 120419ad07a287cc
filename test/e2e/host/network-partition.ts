// A TCP relay between the app and a kikitori-server that a spec can cut and heal: the app loses the
// server (connections refused, open ones reset) while a teammate's client, talking to the server itself,
// goes on. Bytes pass through unread, so everything else about the connection is real.
import net from 'node:net';

export interface NetworkPartition {
  /** Where the app connects: the relay. */
  url: string;
  /** The server becomes unreachable for the app: the relay stops listening and drops its connections. */
  cut(): Promise<void>;
  /** Reachable again, at the same address. */
  heal(): Promise<void>;
  close(): Promise<void>;
}

export async function networkPartition(target: string): Promise<NetworkPartition> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  let relay: net.Server | null = null;
  const listen = (at: number) =>
    new Promise<number>((resolve, reject) => {
      const server = net.createServer((client) => {
        const upstream = net.connect(Number(port), hostname);
        track(client);
        track(upstream);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        relay = server;
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const stop = async () => {
    const server = relay;
    relay = null;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const relayPort = await listen(0);
  return {
    url: `http://127.0.0.1:${relayPort}`,
    cut: stop,
    heal: async () => {
      if (!relay) await listen(relayPort);
    },
    close: stop,
  };
}
