// A real kikitori-server on loopback with a fresh data dir, for integration tests over HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type ServerConfig } from '../../src-server/config.js';
import type { EngineRegistry } from '../../src-server/engines/engine-registry.js';
import { createEngineRegistry } from '../../src-server/engines/engine-setup.js';
import { createRuntime, type RuntimeOptions, type ServerRuntime } from '../../src-server/server-runtime.js';

export interface TestServer {
  url: string;
  runtime: ServerRuntime;
  dataDir: string;
  logLines: string[];
  /** Creates a key in a team (the team and user are created as needed). */
  key(team: string, user?: string, roles?: string[]): Promise<string>;
  api(key: string, method: string, route: string, body?: unknown): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any;
}

export function tempDir(prefix = 'kikitori-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function toApiResponse(response: Response): Promise<ApiResponse> {
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * With KIKITORI_TEST_DATABASE=postgres (`npm run test:postgres`), a fresh database on the run's cluster
 * (test/support/postgres-global-setup.ts) for each server; otherwise none, and the server keeps SQLite in its data dir.
 */
export async function testDatabaseEnv(): Promise<Record<string, string>> {
  if (process.env.KIKITORI_TEST_DATABASE !== 'postgres') return {};
  const admin = process.env.KIKITORI_TEST_POSTGRES_URL;
  if (!admin) throw new Error('KIKITORI_TEST_DATABASE=postgres needs the cluster of test/support/postgres-global-setup.ts: run `npm run test:postgres`');
  const name = `kikitori_server_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { KIKITORI_DATABASE_URL: url.toString() };
}

export async function startTestServer(
  options: { env?: Record<string, string>; dataDir?: string; runtime?: RuntimeOptions } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  // The AWS SDK reads its credentials and region from the process environment itself (the standard
  // chain), not from our configuration: a test's AWS_* settings must reach the process.
  for (const [name, value] of Object.entries(options.env ?? {})) if (name.startsWith('AWS_')) process.env[name] = value;
  // As the CLI does: the environment (the test's settings over the process's), with flags on top.
  const env = { ...process.env, ...(await testDatabaseEnv()), ...options.env };
  const config: ServerConfig = loadConfig({ dataDir, host: '127.0.0.1', port: 0 }, env);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  const runtime = await createRuntime(config, {
    logger,
    sweepIntervalMs: 200,
    retryBaseMs: 50,
    ...options.runtime,
  });
  const url = await runtime.listen();

  const api = async (key: string, method: string, route: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-api-key': key };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(url + route, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return toApiResponse(response);
  };

  return {
    url,
    runtime,
    dataDir,
    logLines,
    async key(team, user = 'alice', roles = []) {
      const { key } = await runtime.ctx.keys.create({ teamId: team, userId: user, userName: `${user} name`, roles });
      return key;
    },
    api,
    async close() {
      await runtime.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Engines configured by KIKITORI_* variables, through the same loader as the server's. */
export function engineRegistryFromEnv(env: Record<string, string>, dataDir?: string): EngineRegistry {
  const config = loadConfig(dataDir === undefined ? {} : { dataDir }, env);
  return createEngineRegistry(config.engines, { dataDir: config.dataDir });
}

/** The file that holds a transcription's stored audio (each upload attempt has its own key; the committed one counts). */
export async function storedAudioPath(server: TestServer, id: string): Promise<string> {
  const record = await server.runtime.ctx.transcriptions.getById(id);
  if (!record?.audioKey) throw new Error(`transcription ${id} has no stored audio`);
  return server.runtime.ctx.storage.localPath(record.audioKey);
}

/** Polls a transcription until its status is one of `statuses` (the test's own timeout bounds it). */
export async function waitForStatus(server: TestServer, key: string, id: string, statuses: string[]): Promise<ApiResponse> {
  for (;;) {
    const response = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    if (statuses.includes(response.json?.status)) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Upload ticket + PUT of a file; returns the ticket. */
export async function uploadFile(server: TestServer, key: string, filePath: string, body: Record<string, unknown> = {}) {
  const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: path.basename(filePath), ...body });
  if (ticket.status !== 200) throw new Error(`upload ticket failed: ${ticket.status} ${ticket.text}`);
  const put = await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(filePath) });
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return ticket.json as { transcription_id: string; dictionary_id: string | null; audio_upload_url: string };
}
