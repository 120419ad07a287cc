// The end-to-end test host: a real kikitori-server (the CLI, in a child process), the real main-process
// services from src-main (the same handler map Electron serves over ipcMain), and an HTTP server that
// gives a browser the built renderer plus a bridge defining `window.kikitori` over HTTP and SSE.
// Playwright specs and bench/desktop-bench.ts drive Chromium against it: the renderer runs against
// the real main logic without the Electron binary.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  IPC_CHANNELS,
  PRELOAD_CHANNELS,
  type IpcChannel,
  type IpcEvent,
  type IpcEvents,
  type IpcRequest,
  type IpcResponse,
  type IpcResult,
} from '../../../src-shared/ipc-contract.js';
import { invokeHandler, type EventSink, type HandlerMap } from '../../../src-main/ipc/handler-registry.js';
import { MEDIA_SCHEME, mediaIdOf, mediaResponse } from '../../../src-main/media-response.js';
import { rendererFileResponse } from '../../../src-main/renderer-files.js';
import { bridgeScript } from './build-bridge.js';
import { createHostServices, type HostServices, type TestDialogs } from './host-services.js';
import { createApiKeyInProcess, launcherOf, startServer, stopServer, type ServerChild } from './server-process.js';

/** A kikitori-server the spec starts its own way (test/e2e/host/in-process-server.ts): where, a key, how to stop it. */
export interface OwnServer {
  url: string;
  apiKey: string;
  stop(): Promise<void>;
}

export interface HostOptions {
  /** Extra environment for kikitori-server. */
  serverEnv?: Record<string, string>;
  /**
   * 'real' (default): a kikitori-server child process. 'unreachable': a profile whose server never
   * answers (a closed loopback port), for benchmarks that read a seeded cache offline. A function: the
   * server it starts (e.g. in this process with a scripted speech engine), which the host stops at close;
   * it cannot be restarted.
   */
  server?: 'real' | 'unreachable' | (() => Promise<OwnServer>);
  /** Roles of the test's API key (default: DELETE). OPERATOR lets the app manage speech models. */
  keyRoles?: readonly string[];
}

export interface Host {
  /** Where the browser opens the app. */
  url: string;
  /** The kikitori-server's URL, and a key for it. */
  serverUrl: string | null;
  apiKey: string | null;
  userDataDir: string;
  /** The active profile's directory: cache.sqlite, audio/, peaks/. */
  profileDir: string;
  dialogs: TestDialogs;
  services: HostServices;
  /**
   * Handles for files on disk, as main's own file dialog (or a drop through the preload) would give
   * the renderer: what 'uploads:add' and 'transcripts:rerun' take instead of paths (decision 0046).
   */
  offer(...paths: string[]): Promise<string[]>;
  /** Calls a handler directly, as the renderer would. */
  invoke<C extends IpcChannel>(
    channel: C,
    ...request: IpcRequest<C> extends void ? [] : [IpcRequest<C>]
  ): Promise<IpcResult<IpcResponse<C>>>;
  /** Handler failures that were not the app's own errors (bugs: the page shows "Something went wrong"). */
  unexpectedErrors: Array<{ channel: IpcChannel; error: unknown }>;
  /** Events pushed so far, oldest first. */
  events: Array<{ event: IpcEvent; payload: unknown }>;
  /** Stops kikitori-server (the app then works from its cache). */
  stopServer(): Promise<void>;
  /** Starts the stopped kikitori-server again, at the same address and with the same data. */
  restartServer(): Promise<void>;
  close(): Promise<void>;
}

export function repoRoot(): string {
  let dir = import.meta.dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'kikitori') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('kikitori repository root not found');
    dir = parent;
  }
}

export async function startHost(options: HostOptions = {}): Promise<Host> {
  const root = repoRoot();
  const rendererDir = path.join(root, 'dist/renderer');
  if (!fs.existsSync(path.join(rendererDir, 'index.html')))
    throw new Error('dist/renderer is missing: run `npm run build` first');
  const workDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'kikitori-e2e-'));
  const userDataDir = path.join(workDir, 'user-data');
  const stageDir = path.join(workDir, 'staged');
  await fsp.mkdir(userDataDir, { recursive: true });
  await fsp.mkdir(stageDir, { recursive: true });
  // Bundled while the server starts.
  const bridgeBuilt = bridgeScript(root, workDir);
  // Awaited below, after the server: until then a failure must not count as unhandled.
  bridgeBuilt.catch(() => {});

  let server: ServerChild | null = null;
  let ownServer: OwnServer | null = null;
  let apiKey: string | null = null;
  const dataDir = path.join(workDir, 'server-data');
  // The product's heartbeat limit (60 s): with 5 s, a worker starved of CPU on a loaded machine had its
  // running job taken over and queued again, which the app rightly shows as going backwards.
  const serverEnv = { ...options.serverEnv };
  if (typeof options.server === 'function') {
    ownServer = await options.server();
    apiKey = ownServer.apiKey;
  } else if (options.server !== 'unreachable') {
    apiKey = await createApiKeyInProcess(dataDir, options.keyRoles);
    server = await startServer(root, dataDir, serverEnv);
  }
  const serverUrl = ownServer?.url ?? server?.url ?? null;
  const bridge = await bridgeBuilt;

  const events: Host['events'] = [];
  const sseClients = new Set<http.ServerResponse>();
  const sink: EventSink = <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => {
    events.push({ event, payload });
    const frame = `data: ${JSON.stringify({ event, payload })}\n\n`;
    for (const client of sseClients) client.write(frame);
  };

  const httpServer = http.createServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;

  // Port 9 (discard) is closed on loopback: every request fails at once, as with a server that is down.
  const target =
    serverUrl && apiKey ? { url: serverUrl, apiKey } : { url: 'http://127.0.0.1:9', apiKey: 'unreachable' };
  const services = await createHostServices({ userDataDir, events: sink, server: target, launcher: launcherOf(root) });
  const handlers: HandlerMap = services.handlers;
  // What the page may call: as in Electron, not the preload's own channels (the bridge plays the preload).
  const preloadOnly: readonly string[] = PRELOAD_CHANNELS;
  const channels: readonly string[] = IPC_CHANNELS.filter((channel) => !preloadOnly.includes(channel));

  const unexpectedErrors: Host['unexpectedErrors'] = [];
  // Calls and requests being handled: closing waits for them (see close()).
  const inFlight = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => {});
    return work;
  };
  const invoke = (channel: IpcChannel, request: unknown) => track(handle(channel, request));
  const handle = async (channel: IpcChannel, request: unknown): Promise<IpcResult<unknown>> => {
    const result = await invokeHandler(handlers, channel, request, (error) => {
      unexpectedErrors.push({ channel, error });
      console.error(`[e2e host] ${channel} failed unexpectedly:`, error);
    });
    // The one transport difference from Electron: cached audio is served by this host, not a protocol.
    if (channel === 'audio:source' && result.ok) {
      const source = result.value as { url: string; local: boolean };
      const id = source.url.startsWith(`${MEDIA_SCHEME}:`) ? mediaIdOf(source.url) : null;
      if (id) return { ok: true, value: { ...source, url: `/media/${encodeURIComponent(id)}` } };
    }
    return result;
  };

  // Once closing, a request on a kept-alive connection (close() does not end those) is turned away instead of
  // reaching services that are about to stop.
  let closing = false;
  httpServer.on('request', (req, res) => {
    if (closing) {
      res.writeHead(503, { connection: 'close' }).end();
      return;
    }
    void track(
      route(req, res).catch((error: unknown) => {
        console.error('[e2e host]', error);
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }),
    );
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse) {
    const requestUrl = new URL(req.url ?? '/', url);
    const pathname = decodeURIComponent(requestUrl.pathname);

    if (req.method === 'POST' && pathname.startsWith('/ipc/')) {
      const channel = pathname.slice('/ipc/'.length);
      if (!channels.includes(channel))
        return json(res, 404, { ok: false, error: { code: 'internal', message: `Unknown channel ${channel}` } });
      const body = await readBody(req);
      const request = body.length ? (JSON.parse(body.toString('utf8')) as unknown) : null;
      return json(res, 200, await invoke(channel as IpcChannel, request === null ? undefined : request));
    }
    if (req.method === 'GET' && pathname === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': connected\n\n');
      sseClients.add(res);
      req.on('close', () => sseClients.delete(res));
      return;
    }
    if ((req.method === 'GET' || req.method === 'HEAD') && pathname.startsWith('/media/')) {
      const id = pathname.slice('/media/'.length);
      return send(await mediaResponse(await services.resolveMediaPath(id), req.method, req.headers.range ?? null), res);
    }
    if (req.method === 'POST' && pathname === '/stage-file') {
      const name = path.basename(requestUrl.searchParams.get('name') || 'file');
      const dir = path.join(stageDir, randomUUID());
      await fsp.mkdir(dir);
      const target = path.join(dir, name);
      await pipeline(req, fs.createWriteStream(target));
      // As the preload does with webUtils.getPathForFile's path: main registers it and answers a handle.
      return json(res, 200, await invoke('files:offer-dropped', { paths: [target] }));
    }
    if (req.method === 'GET' && pathname === '/__bridge.js') {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return res.end(bridge);
    }
    if (req.method === 'GET' || req.method === 'HEAD') return serveStatic(pathname, res);
    res.writeHead(405).end();
  }

  async function serveStatic(pathname: string, res: http.ServerResponse) {
    if (pathname === '/' || pathname === '/index.html') {
      const html = await fsp.readFile(path.join(rendererDir, 'index.html'), 'utf8');
      // The bridge runs first, as the preload does before the page's scripts.
      const page = html.replace('<head>', '<head>\n    <script src="/__bridge.js"></script>');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return res.end(page);
    }
    // The app's own files as the window's kikitori-app:// scheme answers them (hashed assets cached a year).
    return send(await rendererFileResponse(rendererDir, pathname), res);
  }

  /** A web Response (the media and renderer-file answers main shares with Electron) onto a Node response. */
  function send(response: Response, res: http.ServerResponse) {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    res.writeHead(response.status, headers);
    if (!response.body) return res.end();
    return pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res).catch(() =>
      res.destroy(),
    );
  }

  await services.start();

  return {
    url,
    serverUrl,
    apiKey,
    userDataDir,
    profileDir: path.join(userDataDir, 'profiles', services.profileId),
    dialogs: services.dialogs,
    services,
    events,
    unexpectedErrors,
    invoke: ((channel: IpcChannel, request?: unknown) => invoke(channel, request)) as Host['invoke'],
    async offer(...paths) {
      const offered = await invoke('files:offer-dropped', { paths });
      if (!offered.ok) throw new Error(`${offered.error.reason ?? offered.error.code}: ${offered.error.detail ?? ''}`);
      return (offered.value as Array<{ handle: string }>).map((offer) => offer.handle);
    },
    async stopServer() {
      if (server) await stopServer(server.child);
      await ownServer?.stop();
      ownServer = null;
    },
    async restartServer() {
      if (typeof options.server === 'function') throw new Error('a server the spec started cannot be restarted');
      const previous = server;
      if (!previous) return;
      await stopServer(previous.child);
      server = await startServer(root, dataDir, serverEnv, Number(new URL(previous.url).port));
    },
    async close() {
      closing = true;
      const closed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      for (const client of sseClients) client.end();
      // No new calls come in now; the ones taken finish before the services stop under them. A page closed
      // mid-request leaves its handler running, and stopping first closed the cache database it still used.
      while (inFlight.size > 0) await Promise.allSettled(inFlight);
      await closed;
      await services.stop();
      if (server) await stopServer(server.child);
      await ownServer?.stop();
      await fsp.rm(workDir, { recursive: true, force: true });
    },
  };
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage, limit = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
