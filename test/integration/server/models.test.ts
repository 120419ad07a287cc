// Speech-model management end to end: a local HTTP server (with Range support) serves a generated
// whisper model through KIKITORI_MODEL_CATALOG; the server downloads it in the background over the
// real /api/v1/models routes, survives a cut connection by resuming with a Range request, refuses a
// corrupt file, cancels, deletes, and engine `auto` runs the next upload with the new model.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelDownload, ModelsResponse } from '../../../src-shared/api/models.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { cli } from '../../support/cli-process.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import {
  startTestServer,
  tempDir,
  testDatabaseEnv,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

interface Served {
  /** Requests seen, with their Range header. */
  requests: { url: string; range: string | undefined }[];
  /** Paths whose next request is cut after half the body. */
  cutOnce: Set<string>;
  /** Paths that send a first chunk and then never finish (until the client goes away). */
  stall: Set<string>;
  url: string;
  close(): Promise<void>;
}

async function serveFiles(files: Record<string, Buffer>): Promise<Served> {
  const served: Omit<Served, 'url' | 'close'> = { requests: [], cutOnce: new Set(), stall: new Set() };
  const server = http.createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0]!;
    served.requests.push({ url: name, range: req.headers.range });
    const body = files[name];
    if (!body) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      start = Number(range[1]);
      if (start >= body.length) {
        res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
        return;
      }
      res.writeHead(206, {
        'content-length': body.length - start,
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
      });
    } else {
      res.writeHead(200, { 'content-length': body.length });
    }
    const rest = body.subarray(start);
    if (served.stall.has(name)) {
      res.write(rest.subarray(0, 4096));
      return; // never ends: the client cancels
    }
    if (served.cutOnce.delete(name)) {
      const half = Math.floor(rest.length / 2);
      res.write(rest.subarray(0, half), () => setTimeout(() => res.socket?.destroy(), 50));
      return;
    }
    res.end(rest);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...served,
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let modelBytes: Buffer;
let files: Served;
let scratch: string;
let catalog: string;
let sentence: string;
let refused: string;
/** Bytes that match their catalogue entry's size and SHA-256 but are no whisper model. */
let notModel: Buffer;
/** A second catalogue: a best model, a lesser spare, an entry whose file is not a model, and a slow one. */
let damageCatalog: string;

beforeAll(async () => {
  // A loopback port nothing listens on: what an offline machine meets.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  refused = `http://127.0.0.1:${(probe.address() as net.AddressInfo).port}`;
  await new Promise((resolve) => probe.close(resolve));
  modelBytes = fs.readFileSync(await randomWhisperModel());
  sentence = await synthesizeSpeech('Please call Stella and ask her to bring these things with her from the store.');
  notModel = Buffer.alloc(256 * 1024, 'this is not a whisper model ');
  files = await serveFiles({
    '/ggml-test-base.bin': modelBytes,
    '/ggml-test-corrupt.bin': modelBytes,
    '/ggml-test-slow.bin': modelBytes,
    '/ggml-test-spare.bin': modelBytes,
    '/ggml-test-notggml.bin': notModel,
  });
  files.stall.add('/ggml-test-slow.bin');
  scratch = tempDir();
  catalog = path.join(scratch, 'catalog.json');
  const entry = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    file: `ggml-${name}.bin`,
    bytes: modelBytes.length,
    sha256: sha256(modelBytes),
    multilingual: true,
    speed: 'fastest',
    accuracy: 'basic',
    memory_bytes: modelBytes.length * 2,
    ...extra,
  });
  fs.writeFileSync(
    catalog,
    JSON.stringify({
      models: [
        entry('test-base', { accuracy: 'good' }),
        // Same length, wrong hash: what a damaged mirror would serve.
        entry('test-corrupt', { sha256: sha256(Buffer.from('something else')) }),
        entry('test-slow'),
        entry('test-offline', { url: `${refused}/ggml-test-offline.bin` }),
        entry('test-missing'),
        entry('test-huge', { bytes: 2 ** 52 }),
      ],
    }),
  );
  damageCatalog = path.join(scratch, 'damage-catalog.json');
  fs.writeFileSync(
    damageCatalog,
    JSON.stringify({
      models: [
        entry('test-base', { accuracy: 'great' }),
        entry('test-spare', { accuracy: 'good' }),
        entry('test-notggml', { bytes: notModel.length, sha256: sha256(notModel), accuracy: 'best' }),
        entry('test-slow'),
      ],
    }),
  );
});
afterAll(async () => {
  await files.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

async function waitForDownload(
  server: TestServer,
  key: string,
  name: string,
  statuses: string[],
): Promise<ModelDownload> {
  for (;;) {
    const response = await server.api(key, 'GET', `/api/v1/models/${name}/download`);
    expect(response.status, response.text).toBe(200);
    if (statuses.includes(response.json.status)) return response.json as ModelDownload;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('speech models over HTTP', () => {
  let server: TestServer;
  let operator: string;
  let member: string;
  let teamAdmin: string;
  let otherTeamAdmin: string;
  let modelsDir: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_MODEL_CATALOG: catalog, KIKITORI_MODEL_BASE_URL: files.url, KIKITORI_WHISPER_THREADS: '1' },
    });
    operator = await server.key('acme', 'operator', ['OPERATOR']);
    member = await server.key('acme', 'member');
    // ADMIN is a team's role: it manages nothing the whole server shares.
    teamAdmin = await server.key('acme', 'admin', ['ADMIN', 'DELETE']);
    otherTeamAdmin = await server.key('globex', 'admin', ['ADMIN', 'DELETE']);
    modelsDir = path.join(server.dataDir, 'models');
  });
  afterAll(async () => server.close());

  it('lists the catalogue, what serves each transcription_model, and whether the key may manage', async () => {
    const list = await server.api(member, 'GET', '/api/v1/models');
    expect(list.status).toBe(200);
    const body = list.json as ModelsResponse;
    expect(body.can_manage).toBe(false);
    expect(body.models.map((m) => m.name)).toEqual([
      'test-base',
      'test-corrupt',
      'test-slow',
      'test-offline',
      'test-missing',
      'test-huge',
    ]);
    expect(body.models[0]).toMatchObject({
      file: 'ggml-test-base.bin',
      bytes: modelBytes.length,
      installed: false,
      download: null,
      quantized: false,
      speed: 'fastest',
      accuracy: 'good',
      // Issue 27: the model each file is a build of, and what it keeps of that model's accuracy.
      family: 'test-base',
      precision: 'full',
    });
    expect(body.models[0]!.languages).toEqual(expect.arrayContaining(['en', 'ja', 'es']));
    // Nothing installed: engine auto falls back to pocketsphinx, which cannot detect the language.
    expect(body.serving.default).toMatchObject({
      engine: 'pocketsphinx',
      model: null,
      detects_language: false,
      languages: ['en'],
    });
    expect(body.serving['diarization-high'].engine).toBe('pocketsphinx');
    expect((await server.api(operator, 'GET', '/api/v1/models')).json.can_manage).toBe(true);

    // The operations are in the OpenAPI document, generated from the contract, with their error answers.
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: object; tags?: string[] }>>;
    };
    expect(doc.paths['/api/v1/models']!.get!.tags).toEqual(['models']);
    expect(Object.keys(doc.paths['/api/v1/models/{name}/download']!).sort()).toEqual(['delete', 'get', 'post']);
    expect(doc.paths['/api/v1/models/{name}/download']!.post!.responses).toHaveProperty('507');
    expect(doc.paths['/api/v1/models/{name}']!.delete!.responses).toHaveProperty('409');
  });

  it('refuses downloads, cancels and deletes without OPERATOR (a team ADMIN of any team included), and unknown names', async () => {
    for (const key of [member, teamAdmin, otherTeamAdmin]) {
      expect((await server.api(key, 'GET', '/api/v1/models')).json.can_manage).toBe(false);
      for (const [method, route] of [
        ['POST', '/api/v1/models/test-base/download'],
        ['DELETE', '/api/v1/models/test-base/download'],
        ['DELETE', '/api/v1/models/test-base'],
      ] as const) {
        const refused = await server.api(key, method, route);
        expect(refused.status).toBe(403);
        expect(refused.json).toMatchObject({
          error_code: 4030,
          error_message: expect.stringMatching(/OPERATOR role/),
          error_id: expect.any(String),
        });
      }
    }
    // Roles come from the key's record only: headers claiming one change nothing.
    const forged: Record<string, string>[] = [
      { 'x-api-key-roles': 'OPERATOR' },
      { 'x-roles': 'OPERATOR' },
      { 'x-kikitori-role': 'OPERATOR' },
      { 'x-role': 'OPERATOR', 'x-forwarded-user': 'operator' },
      { 'x-team-id': 'acme', 'x-user-id': 'operator' },
    ];
    for (const headers of forged) {
      for (const key of [member, otherTeamAdmin]) {
        const listed = await fetch(`${server.url}/api/v1/models`, { headers: { ...headers, 'x-api-key': key } });
        expect(((await listed.json()) as ModelsResponse).can_manage).toBe(false);
        const refused = await fetch(`${server.url}/api/v1/models/test-base/download`, {
          method: 'POST',
          headers: { ...headers, 'x-api-key': key },
        });
        expect(refused.status).toBe(403);
        expect(((await refused.json()) as { error_code: number }).error_code).toBe(4030);
      }
    }
    const unknown = await server.api(operator, 'POST', '/api/v1/models/nope/download');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({
      error_code: 4048,
      error_message: expect.stringMatching(/no speech model called "nope".*test-base/),
    });
    expect((await server.api(member, 'GET', '/api/v1/models/nope/download')).json.error_code).toBe(4048);
    const none = await server.api(member, 'GET', '/api/v1/models/test-base/download');
    expect(none.status).toBe(404);
    expect(none.json.error_code).toBe(4049);
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-base')).json).toMatchObject({
      error_code: 4096,
      error_message: expect.stringMatching(/not installed/),
    });
    const bad = await server.api(operator, 'POST', '/api/v1/models/..%2Fetc/download');
    expect(bad.status).toBe(400);
  });

  it('answers 507 before starting when the disk cannot hold the model', async () => {
    const full = await server.api(operator, 'POST', '/api/v1/models/test-huge/download');
    expect(full.status).toBe(507);
    expect(full.json).toMatchObject({
      error_code: 5070,
      error_message: expect.stringMatching(/Not enough disk space.*Free some space/),
    });
    expect(fs.existsSync(modelsDir) ? fs.readdirSync(modelsDir) : []).toEqual([]);
  });

  it('downloads in the background, resumes with a Range request after a cut connection, and verifies', async () => {
    files.cutOnce.add('/ggml-test-base.bin');
    files.requests.length = 0;
    const ack = await server.api(operator, 'POST', '/api/v1/models/test-base/download');
    expect(ack.status).toBe(202);
    expect(ack.json).toEqual({
      model: 'test-base',
      is_async: true,
      status_url: `${server.url}/api/v1/models/test-base/download`,
    });

    const failed = await waitForDownload(server, member, 'test-base', ['FAILED', 'COMPLETED']);
    expect(failed).toMatchObject({
      status: 'FAILED',
      total_bytes: modelBytes.length,
      error: expect.stringMatching(/stopped at \d+ of \d+ bytes.*Download it again to continue/),
      error_code: 'interrupted',
    });
    expect(failed.received_bytes).toBeGreaterThan(0);
    expect(failed.received_bytes).toBeLessThan(modelBytes.length);
    // Nothing at the final name; the part waits for the resume.
    expect(fs.readdirSync(modelsDir)).toEqual(['ggml-test-base.bin.part']);
    const partSize = fs.statSync(path.join(modelsDir, 'ggml-test-base.bin.part')).size;
    expect(partSize).toBeGreaterThan(0);

    const again = await server.api(operator, 'POST', '/api/v1/models/test-base/download');
    expect(again.status).toBe(202);
    const done = await waitForDownload(server, member, 'test-base', ['COMPLETED', 'FAILED']);
    expect(done, done.error ?? '').toMatchObject({
      status: 'COMPLETED',
      received_bytes: modelBytes.length,
      total_bytes: modelBytes.length,
      error: null,
    });
    expect(Date.parse(done.updated_at)).toBeGreaterThanOrEqual(Date.parse(done.started_at));

    expect(files.requests.map((r) => r.range)).toEqual([undefined, `bytes=${partSize}-`]);
    expect(fs.readdirSync(modelsDir)).toEqual(['ggml-test-base.bin']);
    expect(fs.readFileSync(path.join(modelsDir, 'ggml-test-base.bin')).equals(modelBytes)).toBe(true);

    const list = (await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse;
    expect(list.models[0]).toMatchObject({ name: 'test-base', installed: true, download: { status: 'COMPLETED' } });
    // Asking again for an installed model checks the file instead of fetching it again.
    expect((await server.api(operator, 'POST', '/api/v1/models/test-base/download')).status).toBe(202);
    expect(await waitForDownload(server, member, 'test-base', ['COMPLETED', 'FAILED'])).toMatchObject({
      status: 'COMPLETED',
      received_bytes: modelBytes.length,
    });
    expect(files.requests).toHaveLength(2);
  });

  it('runs the next upload with whisper and the new model, without a restart', async () => {
    const serving = ((await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse).serving;
    expect(serving.default).toMatchObject({
      engine: 'whisper',
      model: 'test-base',
      detects_language: true,
      usable: true,
      reason: null,
    });
    expect(serving.default.languages).toEqual(expect.arrayContaining(['en', 'ja']));

    const ticket = await uploadFile(server, member, sentence, { language: 'en' });
    await server.api(member, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    const done = await waitForStatus(server, member, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
    const document = (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
    expect(document.engine).toMatchObject({ name: 'whisper', transcription_model: 'default' });
    expect(document.engine.model).toMatch(/^whisper\.cpp\/test-base/);
    // The record names the engine that actually ran, not `auto`, and the speaker separation the default model
    // runs (decision 0057).
    const row = await server.runtime.db.kysely
      .selectFrom('transcriptions')
      .select('engine')
      .where('transcription_id', '=', ticket.transcription_id)
      .executeTakeFirstOrThrow();
    expect(row.engine).toBe('whisper/whisper.cpp/test-base+embedded-mfcc');
  });

  it('refuses a corrupt download and leaves nothing in place', async () => {
    expect((await server.api(operator, 'POST', '/api/v1/models/test-corrupt/download')).status).toBe(202);
    const failed = await waitForDownload(server, member, 'test-corrupt', ['FAILED', 'COMPLETED']);
    expect(failed).toMatchObject({
      status: 'FAILED',
      error: expect.stringMatching(/damaged.*not kept/),
      error_code: 'corrupt',
    });
    expect(fs.readdirSync(modelsDir).filter((f) => f.includes('test-corrupt'))).toEqual([]);
    expect(((await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse).models[1]).toMatchObject({
      installed: false,
    });
  });

  it('says plainly when the model server cannot be reached or lacks the file', async () => {
    await server.api(operator, 'POST', '/api/v1/models/test-offline/download');
    const offline = await waitForDownload(server, member, 'test-offline', ['FAILED', 'COMPLETED']);
    expect(offline.error).toMatch(
      /^Could not reach the model server.*Check the network connection, or ask an administrator to set a mirror/,
    );
    expect(offline.error).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
    expect(server.logLines.join('\n')).toMatch(/ECONNREFUSED.*speech model download failed/);

    await server.api(operator, 'POST', '/api/v1/models/test-missing/download');
    const missing = await waitForDownload(server, member, 'test-missing', ['FAILED', 'COMPLETED']);
    expect(missing.error).toMatch(/does not have the speech model "test-missing"/);
    expect(fs.readdirSync(modelsDir).filter((f) => /offline|missing/.test(f))).toEqual([]);
  });

  it('cancels a running download: nothing partial is kept; a second POST answers the same download', async () => {
    const first = await server.api(operator, 'POST', '/api/v1/models/test-slow/download');
    const second = await server.api(operator, 'POST', '/api/v1/models/test-slow/download');
    expect([first.status, second.status]).toEqual([202, 202]);
    expect(second.json).toEqual(first.json);
    for (;;) {
      const { received_bytes } = await waitForDownload(server, member, 'test-slow', ['DOWNLOADING']);
      if (received_bytes > 0) break;
    }
    expect(files.requests.filter((r) => r.url === '/ggml-test-slow.bin')).toHaveLength(1);
    // A team's ADMIN cannot stop or delete the server's download, whatever the team.
    for (const key of [teamAdmin, otherTeamAdmin]) {
      expect((await server.api(key, 'DELETE', '/api/v1/models/test-slow/download')).status).toBe(403);
      expect((await server.api(key, 'DELETE', '/api/v1/models/test-slow')).status).toBe(403);
    }
    expect((await server.api(member, 'GET', '/api/v1/models/test-slow/download')).json.status).toBe('DOWNLOADING');
    const cancel = await server.api(operator, 'DELETE', '/api/v1/models/test-slow/download');
    expect(cancel.status).toBe(204);
    expect((await waitForDownload(server, member, 'test-slow', ['CANCELLED', 'FAILED', 'COMPLETED'])).status).toBe(
      'CANCELLED',
    );
    expect(fs.readdirSync(modelsDir).filter((f) => f.includes('test-slow'))).toEqual([]);
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-slow/download')).json.error_code).toBe(4049);

    // Deleting a model whose download runs cancels the download.
    await server.api(operator, 'POST', '/api/v1/models/test-slow/download');
    await waitForDownload(server, member, 'test-slow', ['DOWNLOADING']);
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-slow')).json.error_code).toBe(4096);
    expect((await waitForDownload(server, member, 'test-slow', ['CANCELLED', 'FAILED', 'COMPLETED'])).status).toBe(
      'CANCELLED',
    );
    expect(fs.readdirSync(modelsDir).filter((f) => f.includes('test-slow'))).toEqual([]);
  });

  it('deletes an installed model only with OPERATOR; the next job falls back to pocketsphinx', async () => {
    for (const key of [teamAdmin, otherTeamAdmin])
      expect((await server.api(key, 'DELETE', '/api/v1/models/test-base')).status).toBe(403);
    expect(fs.readdirSync(modelsDir)).toEqual(['ggml-test-base.bin']);
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-base')).status).toBe(204);
    expect(fs.readdirSync(modelsDir)).toEqual([]);
    const body = (await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse;
    expect(body.models[0]!.installed).toBe(false);
    expect(body.serving.default.engine).toBe('pocketsphinx');
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-base')).status).toBe(409);
  });
});

describe('speech models on the command line', () => {
  it('lists, downloads (resuming a partial file), verifies and deletes through the same code', async () => {
    const dataDir = tempDir();
    const env = { KIKITORI_MODEL_CATALOG: catalog, KIKITORI_MODEL_BASE_URL: files.url };
    try {
      const list = JSON.parse(
        (await cli(['models', 'list', '--json', '--data-dir', dataDir], env)).stdout,
      ) as ModelsResponse['models'];
      expect(list.map((m) => [m.name, m.installed, m.download])).toContainEqual(['test-base', false, null]);
      expect(list[0]).toMatchObject({
        file: 'ggml-test-base.bin',
        bytes: modelBytes.length,
        sha256: sha256(modelBytes),
        memory_bytes: modelBytes.length * 2,
      });

      // Half a file from an earlier attempt: the CLI continues it.
      const dir = path.join(dataDir, 'models');
      fs.mkdirSync(dir, { recursive: true });
      const half = Math.floor(modelBytes.length / 2);
      fs.writeFileSync(path.join(dir, 'ggml-test-base.bin.part'), modelBytes.subarray(0, half));
      files.requests.length = 0;
      const download = await cli(['models', 'download', 'test-base', '--data-dir', dataDir], env);
      expect(download.stderr).toMatch(new RegExp(`Resuming test-base at ${half} of ${modelBytes.length} bytes`));
      expect(download.stderr).toMatch(/test-base: 100%/);
      expect(download.stdout).toMatch(/Downloaded and verified .*ggml-test-base\.bin/);
      expect(files.requests).toEqual([{ url: '/ggml-test-base.bin', range: `bytes=${half}-` }]);
      expect(fs.readFileSync(path.join(dir, 'ggml-test-base.bin')).equals(modelBytes)).toBe(true);

      expect((await cli(['models', 'verify', 'test-base', '--data-dir', dataDir], env)).stdout).toMatch(
        /^test-base: OK/,
      );
      const installed = JSON.parse(
        (await cli(['models', 'list', '--json', '--data-dir', dataDir], env)).stdout,
      ) as ModelsResponse['models'];
      expect(installed.find((m) => m.name === 'test-base')?.installed).toBe(true);

      // A damaged file is reported by verify.
      const damaged = Buffer.from(modelBytes);
      damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0xff, damaged.length - 1);
      fs.writeFileSync(path.join(dir, 'ggml-test-base.bin'), damaged);
      const verify = await cli(['models', 'verify', '--data-dir', dataDir], env).catch(
        (e: { code: number; stdout: string }) => e,
      );
      expect(verify).toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/test-base: FAILED: SHA-256 is [0-9a-f]{64}/),
      });

      expect((await cli(['models', 'delete', 'test-base', '--data-dir', dataDir], env)).stdout).toMatch(/Deleted/);
      expect(fs.readdirSync(dir)).toEqual([]);
      const again = await cli(['models', 'delete', 'test-base', '--data-dir', dataDir], env).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(again).toMatchObject({ code: 1, stderr: expect.stringMatching(/not installed/) });

      const corrupt = await cli(['models', 'download', 'test-corrupt', '--data-dir', dataDir], env).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(corrupt).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/damaged[^]*SHA-256 [0-9a-f]{64}, expected/),
      });
      expect(fs.readdirSync(dir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed catalogue at start, naming the file and the problem', async () => {
    const bad = path.join(scratch, 'bad.json');
    fs.writeFileSync(
      bad,
      JSON.stringify({ models: [{ name: 'x', file: 'ggml-x.bin', bytes: 10, sha256: 'abc', multilingual: true }] }),
    );
    const listed = await cli(['models', 'list'], { KIKITORI_MODEL_CATALOG: bad }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(listed).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /Configuration error: KIKITORI_MODEL_CATALOG \(.*bad\.json\) does not match the catalogue format at \/models\/0\/sha256/,
      ),
    });
    fs.writeFileSync(bad, '{ "models": [');
    await expect(startTestServer({ env: { KIKITORI_MODEL_CATALOG: bad } })).rejects.toThrow(
      /KIKITORI_MODEL_CATALOG .* is not valid JSON/,
    );
    await expect(
      startTestServer({ env: { KIKITORI_MODEL_CATALOG: path.join(scratch, 'absent.json') } }),
    ).rejects.toThrow(/cannot be read \(ENOENT\)/);
  });
});

describe('the OPERATOR role on the command line', () => {
  it('creates keys with OPERATOR, refuses unknown roles, grants roles to an existing key; ADMIN alone manages no models', async () => {
    const dataDir = tempDir();
    // The CLI and the server on the same database: the data dir's SQLite, or the test run's PostgreSQL.
    const database = await testDatabaseEnv();
    try {
      const created = await cli(
        [
          'keys',
          'create',
          '--data-dir',
          dataDir,
          '--team',
          'acme',
          '--user',
          'root',
          '--role',
          'operator',
          '--role',
          'DELETE',
        ],
        database,
      );
      expect(created.stdout).toMatch(/\(roles: DELETE, OPERATOR\)/);
      const rootKey = created.stdout.trim().split('\n').at(-1)!;
      const refused = await cli(
        ['keys', 'create', '--data-dir', dataDir, '--team', 'acme', '--user', 'eve', '--role', 'SUPERUSER'],
        database,
      ).catch((e: { code: number; stderr: string }) => e);
      expect(refused).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          /Unknown role "SUPERUSER". Roles: DELETE, ADMIN, OPERATOR\..*OPERATOR lets it download, cancel and delete the server's speech models/,
        ),
      });

      // A key made before OPERATOR existed, with ADMIN: it keeps working, but manages models only once granted OPERATOR.
      const older = (
        await cli(
          ['keys', 'create', '--data-dir', dataDir, '--team', 'acme', '--user', 'bob', '--role', 'ADMIN'],
          database,
        )
      ).stdout
        .trim()
        .split('\n')
        .at(-1)!;
      const server = await startTestServer({ dataDir, env: database });
      try {
        expect((await server.api(rootKey, 'GET', '/api/v1/models')).json.can_manage).toBe(true);
        expect((await server.api(older, 'GET', '/api/v1/models')).json.can_manage).toBe(false);
        expect((await server.api(older, 'DELETE', '/api/v1/models/base')).json.error_code).toBe(4030);
        const granted = await cli(
          ['keys', 'grant', older.slice(0, 10), '--role', 'OPERATOR', '--data-dir', dataDir],
          database,
        );
        expect(granted.stdout).toMatch(/of user "bob" now has roles: ADMIN, OPERATOR/);
        // The granted key manages models at once.
        expect((await server.api(older, 'GET', '/api/v1/models')).json.can_manage).toBe(true);
        const keys = JSON.parse((await cli(['keys', 'list', '--json', '--data-dir', dataDir], database)).stdout) as {
          userId: string;
          roles: string[];
        }[];
        expect(keys.map((k) => [k.userId, k.roles])).toEqual([
          ['root', ['DELETE', 'OPERATOR']],
          ['bob', ['ADMIN', 'OPERATOR']],
        ]);
        const unknown = await cli(
          ['keys', 'grant', 'kk_nothing', '--role', 'OPERATOR', '--data-dir', dataDir],
          database,
        ).catch((e: { code: number; stderr: string }) => e);
        expect(unknown).toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/No single active key matches "kk_nothing"/),
        });
      } finally {
        await server.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a model that does not load', () => {
  let server: TestServer;
  let operator: string;
  let member: string;
  let modelsDir: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: { KIKITORI_MODEL_CATALOG: damageCatalog, KIKITORI_MODEL_BASE_URL: files.url, KIKITORI_WHISPER_THREADS: '1' },
    });
    operator = await server.key('acme', 'operator', ['OPERATOR']);
    member = await server.key('acme', 'member');
    modelsDir = path.join(server.dataDir, 'models');
  });
  afterAll(async () => server.close());

  const list = async () => (await server.api(member, 'GET', '/api/v1/models')).json as ModelsResponse;
  const entryOf = (body: ModelsResponse, name: string) => body.models.find((m) => m.name === name)!;
  const transcribe = async () => {
    const ticket = await uploadFile(server, member, sentence, { language: 'en' });
    await server.api(member, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    const done = await waitForStatus(server, member, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
    return (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument;
  };

  it('is not installed when its bytes match the catalogue but are no whisper model', async () => {
    expect((await server.api(operator, 'POST', '/api/v1/models/test-notggml/download')).status).toBe(202);
    const failed = await waitForDownload(server, member, 'test-notggml', ['FAILED', 'COMPLETED']);
    expect(failed).toMatchObject({
      status: 'FAILED',
      error: expect.stringMatching(
        /^The speech model "test-notggml" was downloaded, but it is not a speech model this server can load, so it was not installed\./,
      ),
    });
    expect(failed.error).not.toMatch(/magic|\.bin|127\.0\.0\.1/);
    expect(server.logLines.join('\n')).toMatch(
      /SHA-256 matches the catalogue, but .*wrong magic number.*speech model download failed/,
    );
    expect(fs.readdirSync(modelsDir).filter((f) => f.includes('test-notggml'))).toEqual([]);
    expect(entryOf(await list(), 'test-notggml')).toMatchObject({ installed: false, damaged: false });
  });

  it('placed on the server by hand, is listed as damaged and skipped: jobs run on the built-in recognizer', async () => {
    fs.writeFileSync(path.join(modelsDir, 'ggml-test-base.bin'), Buffer.alloc(modelBytes.length, 'damaged '));
    const body = await list();
    expect(entryOf(body, 'test-base')).toMatchObject({ installed: true, damaged: true });
    expect(body.serving.default).toMatchObject({ engine: 'pocketsphinx', usable: true });

    const first = await transcribe();
    expect(first.engine.name).toBe('pocketsphinx');
    await transcribe();
    // Logged once, however many jobs pass it over.
    expect(server.logLines.filter((l) => l.includes('speech model is damaged')).length).toBe(1);
    expect(server.logLines.join('\n')).toMatch(/"model":"test-base".*wrong magic number.*engine auto skips it/);
  });

  it('is passed over for the next installed model that loads', async () => {
    fs.writeFileSync(path.join(modelsDir, 'ggml-test-spare.bin'), modelBytes);
    const body = await list();
    expect(entryOf(body, 'test-base')).toMatchObject({ installed: true, damaged: true });
    expect(entryOf(body, 'test-spare')).toMatchObject({ installed: true, damaged: false });
    expect(body.serving.default).toMatchObject({ engine: 'whisper', model: 'test-spare', usable: true });
    const document = await transcribe();
    expect(document.engine.model).toMatch(/^whisper\.cpp\/test-spare/);

    // Deleted and downloaded again, the best model serves once more.
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-base')).status).toBe(204);
    expect((await server.api(operator, 'POST', '/api/v1/models/test-base/download')).status).toBe(202);
    expect(await waitForDownload(server, member, 'test-base', ['COMPLETED', 'FAILED'])).toMatchObject({
      status: 'COMPLETED',
    });
    const after = await list();
    expect(entryOf(after, 'test-base')).toMatchObject({ installed: true, damaged: false });
    expect(after.serving.default).toMatchObject({ engine: 'whisper', model: 'test-base' });
  });
});

describe('free disk space for downloads', () => {
  const reserve = 1024 ** 2;
  let free = 0;
  let server: TestServer;
  let operator: string;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        KIKITORI_MODEL_CATALOG: damageCatalog,
        KIKITORI_MODEL_BASE_URL: files.url,
        KIKITORI_MIN_FREE_DISK_BYTES: String(reserve),
      },
      runtime: { freeSpace: async () => free },
    });
    operator = await server.key('ops', 'operator', ['OPERATOR']);
  });
  afterAll(async () => server.close());

  it('keeps the reserve free', async () => {
    free = reserve + modelBytes.length - 1;
    const full = await server.api(operator, 'POST', '/api/v1/models/test-spare/download');
    expect(full.status).toBe(507);
    expect(full.json).toMatchObject({
      error_code: 5070,
      error_message: expect.stringMatching(/Not enough disk space for the speech model "test-spare".*Free some space/),
    });
    expect(server.logLines.join('\n')).not.toMatch(/test-spare.*speech model download/);
  });

  it('sets aside what running downloads will still write, so two cannot fill the disk together', async () => {
    free = reserve + Math.floor(modelBytes.length * 1.5);
    files.stall.add('/ggml-test-slow.bin');
    expect((await server.api(operator, 'POST', '/api/v1/models/test-slow/download')).status).toBe(202);
    for (;;) {
      const { received_bytes } = await waitForDownload(server, operator, 'test-slow', ['DOWNLOADING']);
      if (received_bytes > 0) break;
    }
    const second = await server.api(operator, 'POST', '/api/v1/models/test-spare/download');
    expect(second.status).toBe(507);
    expect(second.json.error_message).toMatch(/while the other downloads finish/);
    // Once the first stops, the second fits.
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-slow/download')).status).toBe(204);
    expect((await server.api(operator, 'POST', '/api/v1/models/test-spare/download')).status).toBe(202);
    expect(await waitForDownload(server, operator, 'test-spare', ['COMPLETED', 'FAILED'])).toMatchObject({
      status: 'COMPLETED',
    });
  });

  it('lets only one of two downloads started at the same moment take the room there is for one', async () => {
    expect((await server.api(operator, 'DELETE', '/api/v1/models/test-spare')).status).toBe(204);
    free = reserve + Math.floor(modelBytes.length * 1.5);
    const models = server.runtime.ctx.models;
    const started = await Promise.allSettled([models.startDownload('test-slow'), models.startDownload('test-spare')]);
    expect(started.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(started.find((s) => s.status === 'rejected')).toMatchObject({ reason: { kind: 'insufficient-storage' } });
    for (const name of ['test-slow', 'test-spare']) await models.cancelDownload(name);
  });
});

describe('damaged models on the command line', () => {
  it('verify, list and engines say which model is damaged and what to do; download refuses a file that is no model', async () => {
    const dataDir = tempDir();
    const env = { KIKITORI_MODEL_CATALOG: damageCatalog, KIKITORI_MODEL_BASE_URL: files.url };
    try {
      const dir = path.join(dataDir, 'models');
      fs.mkdirSync(dir, { recursive: true });
      // The catalogue's bytes, but no whisper model: only a hand copy puts it there.
      fs.writeFileSync(path.join(dir, 'ggml-test-notggml.bin'), notModel);
      fs.writeFileSync(path.join(dir, 'ggml-test-spare.bin'), modelBytes);
      const verify = await cli(['models', 'verify', '--data-dir', dataDir], env).catch(
        (e: { code: number; stdout: string }) => e,
      );
      expect(verify).toMatchObject({ code: 1 });
      expect(verify.stdout).toMatch(/^test-spare: OK/m);
      expect(verify.stdout).toMatch(
        /^test-notggml: FAILED: damaged, engine auto skips it: .*wrong magic number.*Delete it and download it again/m,
      );

      const list = JSON.parse(
        (await cli(['models', 'list', '--json', '--data-dir', dataDir], env)).stdout,
      ) as ModelsResponse['models'];
      expect(list.filter((m) => m.damaged).map((m) => m.name)).toEqual(['test-notggml']);
      expect((await cli(['models', 'list', '--data-dir', dataDir], env)).stdout).toMatch(
        /test-notggml .*DAMAGED: delete it and download it again/,
      );

      const engines = (await cli(['engines', '--data-dir', dataDir], env)).stdout;
      expect(engines).toMatch(
        /speech model test-notggml: DAMAGED, engine auto skips it\n {2}why: .*wrong magic number/,
      );

      fs.rmSync(path.join(dir, 'ggml-test-notggml.bin'));
      const download = await cli(['models', 'download', 'test-notggml', '--data-dir', dataDir], env).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(download).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(
          /not a speech model this server can load, so it was not installed[^]*wrong magic number/,
        ),
      });
      expect(fs.readdirSync(dir)).toEqual(['ggml-test-spare.bin']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
