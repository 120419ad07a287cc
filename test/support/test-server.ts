// A real kikitori-server on loopback with a fresh data dir, for integration tests over HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { loadConfig, type ServerConfig } from '../../src-server/config.js';
import type { EngineRegistry } from '../../src-server/engines/engine-registry.js';
import { createEngineRegistry } from '../../src-server/engines/engine-setup.js';
import { createRuntime, type RuntimeOptions, type ServerRuntime } from '../../src-server/server-runtime.js';
import { tempDir } from './temp-dir.js';
import { testDatabase } from './postgres.js';

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

// Light helpers live apart so unit tests can use them without this module's server imports.
export { tempDir };

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
 * With KIKITORI_TEST_DATABASE=postgres (the `postgres-s3` project), a fresh database on the run's cluster
 * (test/support/postgres-cluster-setup.ts) for each server; otherwise none, and the server keeps SQLite in its data dir.
 */
export async function testDatabaseEnv(): Promise<Record<string, string>> {
  if (process.env.KIKITORI_TEST_DATABASE !== 'postgres') return {};
  return { KIKITORI_DATABASE_URL: await testDatabase('kikitori_server') };
}

/**
 * With KIKITORI_TEST_STORAGE=s3 (the `postgres-s3` project), a fresh bucket on the run's s3rver
 * (test/support/s3-global-setup.ts) for each server; otherwise none, and the server keeps its files
 * under its data dir's storage/.
 */
export async function testStorageEnv(): Promise<Record<string, string>> {
  if (process.env.KIKITORI_TEST_STORAGE !== 's3') return {};
  const endpoint = process.env.KIKITORI_TEST_S3_ENDPOINT;
  if (!endpoint)
    throw new Error(
      'KIKITORI_TEST_STORAGE=s3 needs the S3 server of test/support/s3-global-setup.ts: run `npm run test:postgres`',
    );
  const bucket = `kikitori-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  // s3rver checks signatures only when one is sent; an unsigned request is accepted.
  const response = await fetch(`${endpoint}/${bucket}`, { method: 'PUT' });
  if (!response.ok) throw new Error(`creating bucket ${bucket}: ${response.status} ${await response.text()}`);
  const { S3_CREDENTIALS } = await import('./s3.js');
  return { ...S3_CREDENTIALS, KIKITORI_STORAGE_URL: `s3://${bucket}`, KIKITORI_S3_ENDPOINT: endpoint };
}

/** Whether test servers keep their objects in S3 (the `postgres-s3` project) rather than under the data dir. */
export const testStorageIsS3 = (): boolean => process.env.KIKITORI_TEST_STORAGE === 's3';

export async function startTestServer(
  options: {
    env?: Record<string, string>;
    dataDir?: string;
    runtime?: RuntimeOptions;
    /**
     * 'files' keeps the objects under the data dir whatever the run's backend: for tests about the server
     * receiving an upload itself (in S3 mode the client PUTs to the store's presigned URL instead).
     */
    storage?: 'files';
    /** The server's log level (info by default, which logs every request). */
    logLevel?: pino.Level;
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir();
  // The AWS SDK reads its credentials and region from the process environment itself (the standard
  // chain), not from our configuration: a test's AWS_* settings must reach the process.
  // The run's backend (SQLite and files, or PostgreSQL and S3), unless the test sets its own.
  const settings = {
    ...(await testDatabaseEnv()),
    ...(options.storage === 'files' ? {} : await testStorageEnv()),
    ...options.env,
  };
  for (const [name, value] of Object.entries(settings)) if (name.startsWith('AWS_')) process.env[name] = value;
  // As the CLI does: the environment (the test's settings over the process's), with flags on top.
  const env = { ...process.env, ...settings };
  const config: ServerConfig = loadConfig({ dataDir, host: '127.0.0.1', port: 0 }, env);
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: options.logLevel ?? 'info' }, sink);
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

/**
 * The keys of the objects a server has stored under `prefix` (e.g. `openai`), on either storage: the files
 * under its data dir's storage/ (temporary `.tmp` files left out), or the objects in its S3 bucket.
 */
export async function storedKeys(server: TestServer, prefix: string): Promise<string[]> {
  const { storage } = server.runtime.ctx.config;
  if (!storage.url) {
    const root = path.join(server.dataDir, 'storage');
    const dir = path.join(root, prefix);
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
      .sort();
  }
  const { S3Client, ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const { parseStorageUrl } = await import('../../src-server/storage/s3-storage.js');
  const { bucket, prefix: base } = parseStorageUrl(storage.url);
  const root = base ? `${base}/` : '';
  const client = new S3Client({ endpoint: storage.s3Endpoint ?? undefined, forcePathStyle: true });
  try {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: `${root}${prefix}/`, ContinuationToken: token }),
      );
      keys.push(...(page.Contents ?? []).map((object) => object.Key!.slice(root.length)));
      token = page.NextContinuationToken;
    } while (token);
    return keys.sort();
  } finally {
    client.destroy();
  }
}

/**
 * What a server's work dir holds (paths relative to it): nothing once its jobs are done. The S3 storage's own
 * scratch directory (`s3-*`, made at startup for local copies of objects) is looked into, not listed itself.
 */
export function workLeftovers(server: TestServer): string[] {
  const work = path.join(server.dataDir, 'work');
  if (!fs.existsSync(work)) return [];
  const scratch = server.runtime.ctx.config.storage.url
    ? fs.readdirSync(work).filter((name) => name.startsWith('s3-'))
    : [];
  return (fs.readdirSync(work, { recursive: true }) as string[]).filter((entry) => !scratch.includes(entry)).sort();
}

/** Polls a transcription until its status is one of `statuses` (the test's own timeout bounds it). */
export async function waitForStatus(
  server: TestServer,
  key: string,
  id: string,
  statuses: string[],
): Promise<ApiResponse> {
  for (;;) {
    const response = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    if (statuses.includes(response.json?.status)) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Upload ticket + PUT of a file; returns the ticket. */
export async function uploadFile(
  server: TestServer,
  key: string,
  filePath: string,
  body: Record<string, unknown> = {},
) {
  const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', {
    filename: path.basename(filePath),
    ...body,
  });
  if (ticket.status !== 200) throw new Error(`upload ticket failed: ${ticket.status} ${ticket.text}`);
  const put = await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(filePath) });
  if (put.status !== 200) throw new Error(`PUT failed: ${put.status} ${await put.text()}`);
  return ticket.json as { transcription_id: string; dictionary_id: string | null; audio_upload_url: string };
}

/**
 * A request the server helper does not send: a raw string body, or extra headers (If-Match, If-None-Match).
 * A body that is not a string is sent as JSON.
 */
export async function rawRequest(
  server: TestServer,
  key: string,
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const response = await fetch(server.url + route, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return toApiResponse(response);
}

/** Uploads a file, transcribes it and waits until it is COMPLETED; returns its id (fails the test otherwise). */
export async function transcribeFile(
  server: TestServer,
  key: string,
  filePath: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const ticket = await uploadFile(server, key, filePath, body);
  await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  const done = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
  if (done.status !== 'COMPLETED') throw new Error(`transcription ended ${done.status}: ${done.failure_reason}`);
  return ticket.transcription_id;
}

/**
 * A connection of its own to the server's database, as another process (a worker, `kikitori-server keys
 * revoke`) has: SQLite's file, or PostgreSQL. Statements take `?` placeholders on both.
 */
export async function otherConnection(
  server: TestServer,
): Promise<{ run(sql: string, params?: unknown[]): Promise<void>; close(): Promise<void> }> {
  const url = server.runtime.ctx.config.database.url;
  if (url === null) {
    const sqlite = new BetterSqlite3(path.join(server.dataDir, 'kikitori.sqlite'));
    return {
      run: async (sql, params = []) => void sqlite.prepare(sql).run(...params),
      close: async () => void sqlite.close(),
    };
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    run: async (sql, params = []) => {
      let n = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
    close: () => client.end(),
  };
}
