// What the drill's phases share: a seeded random source, raw HTTP over node:http (so that bad methods,
// paths and headers reach the server as sent), the real server as a child process, and the result rows.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createApiKey, startServer, stopServer, type ServerChild } from '../../test/e2e/host/server-process.js';

/** The repository root (the drill runs from dist/bench/drill/). */
export const ROOT = path.resolve(import.meta.dirname, '../../..');

export const QUICK = process.env.DRILL_QUICK === '1';

/** An integer setting from the environment, with its full and quick defaults. */
export function sizeSetting(name: string, full: number, quick: number): number {
  const raw = process.env[name];
  if (raw !== undefined && raw !== '') {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
    return value;
  }
  return QUICK ? quick : full;
}

/** One row of the final table. */
export interface CheckResult {
  check: string;
  /** Requests or runs made. */
  runs: string;
  result: string;
  figure: string;
  pass: boolean;
  /** Reproducers and details printed under the table. */
  notes?: string[];
}

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      return items[int(items.length)]!;
    },
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof prng>;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawRequest {
  method: string;
  /** Path and query, as text: characters beyond Latin-1 are sent as their UTF-8 bytes. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** Send the body chunked (no Content-Length). */
  chunked?: boolean;
}

/** UTF-8 bytes spelled as Latin-1 characters: what node:http puts on the wire as they are. */
export const wire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/** Errors of node:http's client that say it refused to send the request, or lost the answer. */
const RAW_RETRY = /^(ERR_INVALID_CHAR|ERR_UNESCAPED_CHARACTERS|ERR_INVALID_HTTP_TOKEN|HPE_|ECONNRESET|EPIPE)/;

/**
 * Sends one request as given and resolves with the response, or rejects with the socket error when
 * none came. What node:http refuses to send (a space in the path, a NUL in a header), or a request whose
 * answer came while its body was still being written, goes again byte for byte over a plain socket.
 */
export async function send(
  base: string,
  request: RawRequest,
  agent?: http.Agent,
  timeoutMs = 30_000,
): Promise<RawResponse> {
  try {
    return await sendHttp(base, request, agent, timeoutMs);
  } catch (error) {
    if (!RAW_RETRY.test((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return sendRaw(base, request, timeoutMs);
  }
}

/** The request written to a socket as it is (Connection: close), and the answer parsed leniently. */
export function sendRaw(base: string, request: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const url = new URL(base);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  let head = `${request.method} ${wire(request.path)} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [name, value] of Object.entries(request.headers ?? {}))
    for (const v of [value].flat()) head += `${wire(name)}: ${wire(v)}\r\n`;
  if (body && request.chunked) head += 'Transfer-Encoding: chunked\r\n';
  else if (body) head += `Content-Length: ${body.length}\r\n`;
  head += 'Connection: close\r\n\r\n';
  const payload = body
    ? request.chunked
      ? Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : body
    : Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no response within ${timeoutMs} ms`)));
    // The body follows the head after a moment, unless the server answered the head already (431, 400):
    // a body it never reads would make its close a reset, which can discard the answer on the way.
    socket.on('connect', () => {
      socket.write(Buffer.from(head, 'latin1'));
      setTimeout(() => {
        if (chunks.length === 0 && !socket.destroyed) socket.end(payload);
      }, 100);
    });
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // A write cut off by the server's answer and close is expected; what was read still counts.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const data = Buffer.concat(chunks);
      const end = data.indexOf('\r\n\r\n');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(data.subarray(0, 20).toString('latin1'));
      if (end < 0 || !match) return reject(new Error(`no response (${data.length} bytes read)`));
      const headers: http.IncomingHttpHeaders = {};
      for (const line of data.subarray(0, end).toString('latin1').split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      let rest: Buffer = data.subarray(end + 4);
      if (request.method.toUpperCase() === 'HEAD') rest = Buffer.alloc(0);
      else if (headers['content-length'] !== undefined) rest = rest.subarray(0, Number(headers['content-length']));
      else if (String(headers['transfer-encoding']).includes('chunked')) rest = dechunk(rest);
      resolve({ status: Number(match[1]), headers, body: rest });
    });
  });
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function sendHttp(base: string, request: RawRequest, agent?: http.Agent, timeoutMs = 30_000): Promise<RawResponse> {
  const url = new URL(base);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(request.headers ?? {}))
    headers[wire(name)] = Array.isArray(value) ? value.map(wire) : wire(value);
  const body = typeof request.body === 'string' ? Buffer.from(request.body, 'utf8') : request.body;
  const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
  if (body && !request.chunked && !has('content-length')) headers['content-length'] = String(body.length);
  // Said outright: node:http frames a body in chunks by itself only for methods that usually carry one,
  // and would send a GET's or DELETE's unframed, as bytes after the request that begin no request.
  if (body && request.chunked && !has('transfer-encoding')) headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: wire(request.path),
        headers,
        agent: agent ?? false,
        timeout: timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          settled = true;
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
        });
        response.on('error', (error) => {
          if (!settled) {
            settled = true;
            // The headers came: the status is what the server said, even if the body was cut.
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
            void error;
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.on('error', (error) => {
      if (!settled) {
        settled = true;
        reject(error);
      }
    });
    // write() then end(): end(body) alone would make node:http send a Content-Length.
    if (body && request.chunked) {
      req.write(body);
      req.end();
    } else if (body) req.end(body);
    else req.end();
  });
}

/** The fields the drill reads from the server's JSON answers (records, tickets, error bodies); any may be missing. */
export interface Json {
  [field: string]: unknown;
  transcription_id?: string;
  audio_upload_url?: string;
  status?: string;
  upload_status?: string;
  stage?: string | null;
  failure_reason?: string | null;
  audio_path?: string | null;
  transcription_path?: string | null;
  dictionary_id?: string;
  blacklist_word_id?: string;
  words?: Array<{ word_id?: string }>;
  error_id?: unknown;
  error_code?: unknown;
  error_message?: unknown;
  error?: { message?: unknown; type?: unknown; param?: unknown; code?: unknown };
}

/** The JSON body of a response: an object ({} when the body is not a JSON object) and, for lists, its items. */
export function jsonOf(response: RawResponse): { json: Json; list: Json[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (Array.isArray(parsed))
    return { json: {}, list: parsed.filter((item): item is Json => item !== null && typeof item === 'object') };
  return { json: parsed !== null && typeof parsed === 'object' ? (parsed as Json) : {}, list: [] };
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface DrillServer {
  dataDir: string;
  url: string;
  port: number;
  child: ServerChild;
  /** Starts the server again on the same data dir and port (after a kill). */
  restart(): Promise<void>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/** Without rate limits: the phases that are not about overload would poll into 429s. */
export const UNLIMITED = { KIKITORI_RATE_LIMIT_PER_KEY: '0', KIKITORI_RATE_LIMIT_PER_IP: '0' };

/**
 * The built kikitori-server (bin/kikitori-server.js) on a data dir. Model downloads point at a closed
 * loopback port: the fuzz may ask for one, and the drill must not fetch gigabytes.
 */
export async function startDrillServer(dataDir: string, env: Record<string, string> = {}): Promise<DrillServer> {
  const fullEnv = { KIKITORI_MODEL_BASE_URL: 'http://127.0.0.1:9/', ...env };
  let child = await startServer(ROOT, dataDir, fullEnv);
  const port = Number(new URL(child.url).port);
  const exited = () => child.child.exitCode !== null || child.child.signalCode !== null;
  const server: DrillServer = {
    dataDir,
    url: child.url,
    port,
    get child() {
      return child;
    },
    async restart() {
      // The port was just freed by the kill; another process may take it in between, so retry briefly.
      for (let attempt = 0; ; attempt++) {
        try {
          child = await startServer(ROOT, dataDir, fullEnv, port);
          return;
        } catch (error) {
          if (attempt >= 20) throw error;
          await sleep(250);
        }
      }
    },
    async kill() {
      if (exited()) return;
      const done = new Promise<void>((resolve) => child.child.once('exit', () => resolve()));
      // The whole server, as a crash of its machine or its service would: worker processes it started too.
      const pids = descendantsOf(child.child.pid!);
      child.child.kill('SIGKILL');
      for (const pid of pids) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await done;
    },
    async stop() {
      await stopServer(child.child);
    },
  };
  return server;
}

/** The processes started by `pid`, their children, and so on (Linux /proc). */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const [child, parent] of parents) {
      if (parent === current) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

export function apiKey(dataDir: string, roles: readonly string[] = ['DELETE']): Promise<string> {
  return createApiKey(ROOT, dataDir, roles);
}

export function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Every regular file under `dir`, as paths relative to it. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** A JSON API call with a key; resolves with status and parsed body. */
export async function api(
  base: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: Json; list: Json[] }> {
  const response = await send(base, {
    method,
    path: route,
    headers: body === undefined ? { 'x-api-key': key } : { 'x-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, ...jsonOf(response) };
}

/** A field the server must have sent. */
export function need(value: string | null | undefined, what = 'a field'): string {
  if (typeof value !== 'string' || value === '') throw new Error(`the server's answer lacks ${what}`);
  return value;
}

/** The path and query of a URL the server signed (it carries the server's own host). */
export const pathOf = (signed: string | null | undefined) => {
  if (!signed) throw new Error('the server gave no signed URL');
  const url = new URL(signed);
  return url.pathname + url.search;
};
