// A local TLS front for a plain-HTTP test server: OpenAI's Realtime client dials wss:// only. A self-signed
// certificate for 127.0.0.1 is made with openssl at test time; the front terminates TLS and pipes each
// connection to the server's port, as a reverse proxy in front of a real deployment would.
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { tempDir } from './temp-dir.js';

const run = promisify(execFile);

export interface TlsFront {
  /** https://127.0.0.1:<port> */
  url: string;
  /** The certificate (PEM), for the client to trust. */
  ca: string;
  close(): Promise<void>;
}

export async function startTlsFront(target: string): Promise<TlsFront> {
  const dir = tempDir();
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  const [key, cert] = await Promise.all([fsp.readFile(keyFile, 'utf8'), fsp.readFile(certFile, 'utf8')]);
  await fsp.rm(dir, { recursive: true, force: true });
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ key, cert }, (front) => {
    const back = net.connect(Number(port), hostname);
    sockets.add(front).add(back);
    front.pipe(back).pipe(front);
    const end = () => {
      front.destroy();
      back.destroy();
      sockets.delete(front);
      sockets.delete(back);
    };
    front.on('error', end).on('close', end);
    back.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `https://127.0.0.1:${address.port}`,
    ca: cert,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
