// Installing a speech model from a file, for a server that cannot reach the model host (issue 27 item 7,
// decision 0071): PUT /api/v1/models/{name}/file streams the file in and checks it as a download is; the
// CLI's `models install` runs the same code. A generated whisper model stands in for a real one.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogueModel, ModelDownload, ModelsResponse } from '../../../src-shared/api/models.js';
import { cli } from '../../support/cli-process.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import { startTestServer, tempDir, type TestServer } from '../../support/test-server.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let modelBytes: Buffer;
let notModel: Buffer;
let scratch: string;
let catalog: string;
/** Serves one file that sends a first chunk and never finishes: a download that is still running. */
let stalling: http.Server;
let stallingUrl: string;

beforeAll(async () => {
  modelBytes = fs.readFileSync(await randomWhisperModel());
  notModel = Buffer.alloc(64 * 1024, 'this is not a whisper model ');
  stalling = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-length': modelBytes.length });
    res.write(modelBytes.subarray(0, 4096));
  });
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as net.AddressInfo).port}`;
  scratch = tempDir();
  catalog = path.join(scratch, 'catalog.json');
  const entry = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    file: `ggml-${name}.bin`,
    bytes: modelBytes.length,
    sha256: sha256(modelBytes),
    multilingual: true,
    speed: 'fastest',
    accuracy: 'good',
    memory_bytes: modelBytes.length * 2,
    ...extra,
  });
  fs.writeFileSync(
    catalog,
    JSON.stringify({
      models: [
        entry('test-base'),
        entry('test-slow', { url: `${stallingUrl}/ggml-test-slow.bin` }),
        entry('test-notggml', { bytes: notModel.length, sha256: sha256(notModel) }),
        entry('test-huge', { bytes: 2 ** 52 }),
      ],
    }),
  );
});
afterAll(async () => {
  stalling.closeAllConnections();
  await new Promise((resolve) => stalling.close(resolve));
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('installing a speech model from a file over HTTP', () => {
  let server: TestServer;
  let operator: string;
  let member: string;
  let teamAdmin: string;
  let modelsDir: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        KIKITORI_MODEL_CATALOG: catalog,
        KIKITORI_MODEL_BASE_URL: 'http://127.0.0.1:9',
        KIKITORI_WHISPER_THREADS: '1',
      },
    });
    operator = await server.key('acme', 'operator', ['OPERATOR']);
    member = await server.key('acme', 'member');
    teamAdmin = await server.key('acme', 'admin', ['ADMIN', 'DELETE']);
    modelsDir = path.join(server.dataDir, 'models');
  });
  afterAll(async () => server.close());

  const put = (
    key: string | null,
    name: string,
    body: Buffer | ReadableStream<Uint8Array>,
    headers: Record<string, string> = {},
  ) =>
    fetch(`${server.url}/api/v1/models/${name}/file`, {
      method: 'PUT',
      headers: { ...(key ? { 'x-api-key': key } : {}), 'content-type': 'application/octet-stream', ...headers },
      body: Buffer.isBuffer(body) ? new Uint8Array(body) : body,
      duplex: 'half',
    } as RequestInit);
  const leftovers = () => (fs.existsSync(modelsDir) ? fs.readdirSync(modelsDir) : []);
  const listed = async (name: string) =>
    ((await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse).models.find((m) => m.name === name)!;
  /** A body sent in chunks with no Content-Length: its size is learnt only as it arrives. */
  const chunked = (bytes: Buffer) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 16 * 1024) controller.enqueue(bytes.subarray(at, at + 16 * 1024));
        controller.close();
      },
    });

  it('is in the OpenAPI document with its error answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: object; tags?: string[] }>>;
    };
    const operation = doc.paths['/api/v1/models/{name}/file']!.put!;
    expect(operation.tags).toEqual(['models']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '422', '507']));
  });

  it('refuses keys without OPERATOR, forged role headers, no key and unknown or malformed names, installing nothing', async () => {
    for (const key of [member, teamAdmin]) {
      const refused = await put(key, 'test-base', modelBytes, { 'x-api-key-roles': 'OPERATOR', 'x-role': 'OPERATOR' });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({
        error_code: 4030,
        error_message: expect.stringMatching(/OPERATOR role/),
      });
    }
    const anonymous = await put(null, 'test-base', modelBytes);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error_code: 4010 });
    const forged = await put('kk_not_a_real_key', 'test-base', modelBytes);
    expect(forged.status).toBe(401);

    const unknown = await put(operator, 'no-such-model', modelBytes);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error_code: 4048, error_message: expect.stringMatching(/test-base/) });
    const malformed = await put(operator, '..%2Fetc', modelBytes);
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error_code).toBe(4000);
    expect(leftovers()).toEqual([]);
    expect((await listed('test-base')).installed).toBe(false);
  });

  it('refuses a file of the wrong size by its Content-Length, before reading it', async () => {
    const response = await put(operator, 'test-base', modelBytes.subarray(0, 1000));
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error_code: 4220,
      error_message: expect.stringMatching(
        /^This file is not the speech model "test-base".*Choose the file named ggml-test-base\.bin\./,
      ),
    });
    expect(leftovers()).toEqual([]);
  });

  it('refuses a file that is too long or too short when its size is learnt only as it streams', async () => {
    const longer = await put(operator, 'test-base', chunked(Buffer.concat([modelBytes, Buffer.alloc(100)])));
    expect(longer.status).toBe(422);
    expect((await longer.json()).error_code).toBe(4220);
    const shorter = await put(operator, 'test-base', chunked(modelBytes.subarray(0, modelBytes.length - 1)));
    expect(shorter.status).toBe(422);
    expect((await shorter.json()).error_code).toBe(4220);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a file of the right size whose checksum differs (another model, or damaged)', async () => {
    const damaged = Buffer.from(modelBytes);
    damaged[damaged.length - 10] = damaged[damaged.length - 10]! ^ 0xff;
    const response = await put(operator, 'test-base', damaged);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body).toMatchObject({ error_code: 4220, error_message: expect.stringMatching(/checksum does not match/) });
    // The operator's detail (the digests) goes to the log, not to the caller.
    expect(body.error_message).not.toMatch(/[0-9a-f]{64}/);
    expect(leftovers()).toEqual([]);
    expect((await listed('test-base')).installed).toBe(false);
  });

  it('refuses the catalogue bytes when they are no whisper model', async () => {
    const response = await put(operator, 'test-notggml', notModel);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error_code: 4221,
      error_message: expect.stringMatching(/not a speech model this server can load, so it was not installed/),
    });
    expect(leftovers()).toEqual([]);
  });

  it('answers 507 when the disk cannot hold the model, before reading it', async () => {
    const response = await put(operator, 'test-huge', Buffer.alloc(10));
    // The declared size is checked first: this file is not the (huge) model.
    expect(response.status).toBe(422);
    const chunkedHuge = await put(operator, 'test-huge', chunked(Buffer.alloc(10)));
    expect(chunkedHuge.status).toBe(507);
    expect(await chunkedHuge.json()).toMatchObject({ error_code: 5070 });
    expect(leftovers()).toEqual([]);
  });

  it('installs the right file: listed as installed, and serving transcriptions without a restart', async () => {
    const response = await put(operator, 'test-base', modelBytes);
    expect(response.status).toBe(200);
    expect((await response.json()) as CatalogueModel).toMatchObject({
      name: 'test-base',
      installed: true,
      damaged: false,
    });
    expect(fs.readFileSync(path.join(modelsDir, 'ggml-test-base.bin')).equals(modelBytes)).toBe(true);
    expect(leftovers()).toEqual(['ggml-test-base.bin']);
    const models = (await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse;
    expect(models.serving.default).toMatchObject({ engine: 'whisper', model: 'test-base' });
    expect(server.logLines.join('\n')).toMatch(/speech model installed from a file and verified/);
  });

  it('cancels a running download of the same model and installs the file instead', async () => {
    expect((await server.api(operator, 'POST', '/api/v1/models/test-slow/download')).status).toBe(202);
    for (;;) {
      const status = (await server.api(member, 'GET', '/api/v1/models/test-slow/download')).json as ModelDownload;
      if (status.received_bytes > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const response = await put(operator, 'test-slow', chunked(modelBytes));
    expect(response.status).toBe(200);
    expect(((await response.json()) as CatalogueModel).installed).toBe(true);
    const download = (await server.api(member, 'GET', '/api/v1/models/test-slow/download')).json as ModelDownload;
    expect(download.status).toBe('CANCELLED');
    expect(leftovers().sort()).toEqual(['ggml-test-base.bin', 'ggml-test-slow.bin']);
  });
});

describe('installing a speech model from a file on the command line', () => {
  it('installs a file that matches and refuses one that does not, naming the file to choose', async () => {
    const dataDir = tempDir();
    const env = { KIKITORI_MODEL_CATALOG: catalog, KIKITORI_MODEL_BASE_URL: 'http://127.0.0.1:9' };
    const wrong = path.join(dataDir, 'wrong.bin');
    const right = path.join(dataDir, 'copied-from-usb.bin');
    fs.writeFileSync(wrong, modelBytes.subarray(0, 100));
    fs.writeFileSync(right, modelBytes);
    try {
      const refused = await cli(['models', 'install', 'test-base', wrong, '--data-dir', dataDir], env).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(1);
      expect(refused?.stderr).toMatch(/This file is not the speech model "test-base".*ggml-test-base\.bin/);
      const installed = await cli(['models', 'install', 'test-base', right, '--data-dir', dataDir], env);
      expect(installed.stdout).toMatch(/Installed and verified the model test-base/);
      expect(fs.readFileSync(path.join(dataDir, 'models', 'ggml-test-base.bin')).equals(modelBytes)).toBe(true);
      const list = JSON.parse(
        (await cli(['models', 'list', '--json', '--data-dir', dataDir], env)).stdout,
      ) as ModelsResponse['models'];
      expect(list.find((m) => m.name === 'test-base')?.installed).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
