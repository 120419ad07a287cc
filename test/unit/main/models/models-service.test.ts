// The models service against a loopback server that speaks the models contract (src-shared/api/
// models.ts): the boundary this test is not about. The real routes are exercised end to end in
// test/e2e/models.spec.ts.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogueModel, ModelDownload, ModelsResponse } from '../../../../src-shared/api/models.js';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import type { ServerProfile, SpeechModelDownload } from '../../../../src-shared/ipc-contract.js';
import { ApiError } from '../../../../src-main/api-client/api-errors.js';
import { isOnThisComputer, ModelsService } from '../../../../src-main/models/models-service.js';
import { clientOf, eventRecorder, until } from '../main-test-support.js';

const GIB = 1024 ** 3;
const MB = 1024 * 1024;

function catalogueModel(name: string, patch: Partial<CatalogueModel> = {}): CatalogueModel {
  return {
    name,
    file: `ggml-${name}.bin`,
    bytes: 100 * MB,
    sha256: 'a'.repeat(64),
    family: name.replace(/(\.en)?(-q\d_\d)?$/, ''),
    multilingual: !name.endsWith('.en'),
    languages: name.endsWith('.en') ? ['en'] : ['en', 'ja', 'es'],
    quantized: false,
    precision: 'full',
    speed: 'fast',
    accuracy: 'good',
    memory_bytes: 500 * MB,
    installed: false,
    damaged: false,
    download: null,
    ...patch,
  };
}

/** A server with the models routes: each status request moves a running download on by a quarter. */
async function modelsServer(
  options: {
    models?: CatalogueModel[];
    failWith?: { status: number; code: number; message: string };
    body?: unknown;
    engine?: string;
  } = {},
) {
  const models = options.models ?? [catalogueModel('tiny'), catalogueModel('base'), catalogueModel('base.en')];
  const downloads = new Map<string, ModelDownload>();
  const requests: string[] = [];
  const now = () => new Date().toISOString();
  const send = (res: http.ServerResponse, status: number, body?: unknown) => {
    res
      .writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' })
      .end(body === undefined ? undefined : JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, code: number, message: string) =>
    send(res, status, { error_id: 'err-1', error_code: code, error_message: message });
  const installs: Array<{ model: string; bytes: number; length: string | undefined }> = [];
  const server = http.createServer((req, res) => {
    if (req.method !== 'PUT') req.resume();
    const admin = req.headers['x-api-key'] === 'admin';
    requests.push(`${req.method} ${req.url}`);
    const url = req.url ?? '';
    if (req.method === 'GET' && url === '/api/v1/models') {
      if (options.body !== undefined) return send(res, 200, options.body);
      const serving = (engine: string, model: string | null) => ({
        engine,
        model,
        detects_language: engine === 'whisper',
        languages: ['en'],
        usable: true,
        reason: null,
      });
      const installed = models.find((m) => m.installed);
      const body: ModelsResponse = {
        models: models.map((m) => ({ ...m, download: downloads.get(m.name) ?? null })),
        serving: {
          default: installed ? serving('whisper', installed.name) : serving(options.engine ?? 'pocketsphinx', 'en-us'),
          'diarization-high': installed ? serving('whisper', installed.name) : serving('pocketsphinx', 'en-us'),
        },
        can_manage: admin,
      };
      return send(res, 200, body);
    }
    const file = url.match(/^\/api\/v1\/models\/([^/]+)\/file$/);
    if (file && req.method === 'PUT') {
      const target = models.find((m) => m.name === file[1]);
      if (!target) return error(res, 404, ErrorCode.MODEL_NOT_FOUND, 'No such model.');
      if (!admin) return error(res, 403, ErrorCode.ROLE_REQUIRED, 'This needs the OPERATOR role.');
      let received = 0;
      req.on('data', (chunk: Buffer) => (received += chunk.length));
      req.on('end', () => {
        installs.push({ model: target.name, bytes: received, length: req.headers['content-length'] });
        if (received !== target.bytes)
          return error(res, 422, ErrorCode.MODEL_FILE_MISMATCH, 'This file is not the speech model.');
        target.installed = true;
        send(res, 200, { ...target, download: null });
      });
      return;
    }
    const match = url.match(/^\/api\/v1\/models\/([^/]+)(\/download)?$/);
    const model = match ? models.find((m) => m.name === match[1]) : undefined;
    if (!match || !model) return error(res, 404, ErrorCode.MODEL_NOT_FOUND, 'No such model.');
    if (req.method !== 'GET' && !admin)
      return error(res, 403, ErrorCode.ROLE_REQUIRED, 'This needs the OPERATOR role.');
    if (options.failWith) return error(res, options.failWith.status, options.failWith.code, options.failWith.message);
    if (match[2] && req.method === 'POST') {
      downloads.set(model.name, {
        model: model.name,
        status: 'DOWNLOADING',
        received_bytes: 0,
        total_bytes: model.bytes,
        error: null,
        error_code: null,
        started_at: now(),
        updated_at: now(),
      });
      return send(res, 202, { model: model.name, is_async: true, status_url: `/api/v1/models/${model.name}/download` });
    }
    const download = downloads.get(model.name);
    if (match[2] && req.method === 'GET') {
      if (!download) return error(res, 404, ErrorCode.MODEL_DOWNLOAD_NOT_FOUND, 'No download.');
      if (download.status === 'DOWNLOADING') {
        download.received_bytes = Math.min(download.total_bytes, download.received_bytes + download.total_bytes / 4);
        if (download.received_bytes === download.total_bytes) download.status = 'VERIFYING';
      } else if (download.status === 'VERIFYING') {
        download.status = 'COMPLETED';
        model.installed = true;
      }
      return send(res, 200, download);
    }
    if (match[2] && req.method === 'DELETE') {
      if (download) download.status = 'CANCELLED';
      return send(res, 204);
    }
    if (req.method === 'DELETE') {
      if (!model.installed) return error(res, 409, ErrorCode.MODEL_NOT_INSTALLED, 'Not installed.');
      model.installed = false;
      return send(res, 204);
    }
    return error(res, 404, ErrorCode.ROUTE_NOT_FOUND, 'No route.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const opened = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** Model files received by PUT .../file: their size, and the Content-Length sent. */
    installs,
    /** As a server restart does: running downloads are forgotten (their status answers 404). */
    forgetDownloads: () => downloads.clear(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  servers.push(opened);
  return opened;
}

const servers: Array<{ close: () => Promise<void> }> = [];
const lifetimes: AbortController[] = [];
afterEach(async () => {
  lifetimes.splice(0).forEach((c) => c.abort());
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function serviceFor(
  server: { url: string },
  key: string,
  options: { profile?: ServerProfile; memoryGb?: number } = {},
) {
  const recorder = eventRecorder();
  const lifetime = new AbortController();
  lifetimes.push(lifetime);
  let dismissed = false;
  const service = new ModelsService({
    client: clientOf(server, key),
    profile: options.profile ?? { id: 'embedded', name: 'This computer', kind: 'embedded', baseUrl: server.url },
    emit: recorder.emit,
    machine: { totalMemoryBytes: (options.memoryGb ?? 6) * GIB, cpuCount: 4 },
    offer: { dismissed: () => dismissed, dismiss: () => void (dismissed = true) },
    signal: lifetime.signal,
    pollMs: 5,
  });
  const progress = (): SpeechModelDownload[] => recorder.of('models:changed');
  return { service, progress, isDismissed: () => dismissed };
}

describe('ModelsService', () => {
  it('reads a server from before the catalogue named models (issue 27): each file its own, compressed ones the lesser', async () => {
    const old = (name: string, quantized: boolean): CatalogueModel => {
      const { family: _family, precision: _precision, ...rest } = catalogueModel(name, { quantized });
      return rest;
    };
    const server = await modelsServer({ models: [old('base', false), old('base-q8_0', true)] });
    const view = await serviceFor(server, 'admin').service.list();
    expect(view.models.map((m) => [m.name, m.family, m.precision])).toEqual([
      ['base', 'base', 'full'],
      ['base-q8_0', 'base-q8_0', 'reduced'],
    ]);
  });

  it("lists the catalogue in the app's terms, with the engine in use and the offer of the model for this machine", async () => {
    const server = await modelsServer();
    const { service } = serviceFor(server, 'admin');
    const view = await service.list();
    expect(view.models.map((m) => [m.name, m.multilingual, m.installed])).toEqual([
      ['tiny', true, false],
      ['base', true, false],
      ['base.en', false, false],
    ]);
    expect(view.models[1]).toEqual({
      name: 'base',
      file: 'ggml-base.bin',
      bytes: 100 * MB,
      family: 'base',
      multilingual: true,
      languages: ['en', 'ja', 'es'],
      quantized: false,
      precision: 'full',
      speed: 'fast',
      accuracy: 'good',
      installed: false,
      damaged: false,
      download: null,
    });
    expect(view.serving.default).toEqual({
      engine: 'pocketsphinx',
      model: 'en-us',
      detectsLanguage: false,
      languages: ['en'],
      usable: true,
      reason: null,
    });
    expect(view).toMatchObject({ canManage: true, local: true, recommended: 'base', offer: true });
  });

  it('downloads in the background and pushes each status until COMPLETED; the offer then ends', async () => {
    const server = await modelsServer();
    const { service, progress } = serviceFor(server, 'admin');
    const started = await service.download('base');
    expect(started.models.find((m) => m.name === 'base')?.download).toMatchObject({
      status: 'DOWNLOADING',
      totalBytes: 100 * MB,
    });
    await until(() => progress().some((p) => p.status === 'COMPLETED'));
    const seen = progress();
    expect(seen.map((p) => p.status)).toEqual(['DOWNLOADING', 'DOWNLOADING', 'DOWNLOADING', 'VERIFYING', 'COMPLETED']);
    expect(seen.map((p) => p.receivedBytes)).toEqual([25, 50, 75, 100, 100].map((n) => n * MB));
    expect(seen.every((p) => p.model === 'base' && p.totalBytes === 100 * MB)).toBe(true);
    const after = await service.list();
    expect(after.models.find((m) => m.name === 'base')?.installed).toBe(true);
    expect(after.serving.default).toMatchObject({ engine: 'whisper', model: 'base' });
    expect(after.offer).toBe(false);
  });

  it('installs from a file: streams it with its length, pushes INSTALLING progress once a percent, then COMPLETED', async () => {
    const server = await modelsServer({ models: [catalogueModel('tiny', { bytes: 3 * MB })] });
    const { service, progress } = serviceFor(server, 'admin');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-model-file-'));
    try {
      const right = path.join(dir, 'copied.bin');
      fs.writeFileSync(right, Buffer.alloc(3 * MB, 7));
      const view = await service.installFromFile('tiny', right);
      expect(view.models[0]).toMatchObject({ name: 'tiny', installed: true });
      expect(server.installs).toEqual([{ model: 'tiny', bytes: 3 * MB, length: String(3 * MB) }]);
      const seen = progress();
      expect(seen.at(-1)).toMatchObject({ model: 'tiny', status: 'COMPLETED' });
      const sending = seen.slice(0, -1);
      expect(sending.length).toBeGreaterThan(1);
      expect(sending.every((p) => p.status === 'INSTALLING' && p.totalBytes === 3 * MB)).toBe(true);
      const percents = sending.map((p) => Math.floor((p.receivedBytes / p.totalBytes) * 100));
      expect(new Set(percents).size).toBe(percents.length);
      expect(sending.at(-1)?.receivedBytes).toBe(3 * MB);

      // The wrong file is the server's refusal, as a validation error; nothing says COMPLETED.
      const before = progress().length;
      const wrong = path.join(dir, 'wrong.bin');
      fs.writeFileSync(wrong, Buffer.alloc(1000));
      const refused = await service.installFromFile('tiny', wrong).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect((refused as ApiError).error.code).toBe('validation');
      expect(
        progress()
          .slice(before)
          .some((p) => p.status === 'COMPLETED'),
      ).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cancels a running download; the poller reports CANCELLED and stops', async () => {
    const server = await modelsServer({ models: [catalogueModel('base', { bytes: 400 * MB })] });
    const { service, progress } = serviceFor(server, 'admin');
    await service.download('base');
    await service.cancel('base');
    await until(() => progress().some((p) => p.status === 'CANCELLED'));
    expect(progress().at(-1)?.status).toBe('CANCELLED');
    expect(server.requests).toContain('DELETE /api/v1/models/base/download');
  });

  it('a download the server forgot (it restarted) ends as FAILED with what to do', async () => {
    const server = await modelsServer({ models: [catalogueModel('base', { bytes: 400 * MB })] });
    const { service, progress } = serviceFor(server, 'admin');
    await service.download('base');
    server.forgetDownloads();
    const failed = await until(() => progress().find((p) => p.status === 'FAILED'));
    // The app's reason for losing it, worded by the renderer: the server no longer knows the download.
    expect(failed.unfollowed).toMatchObject({ code: 'not-found', reason: 'app.not-found-model-download' });
    expect(progress().filter((p) => p.status === 'FAILED')).toHaveLength(1);
  });

  it('deletes an installed model, and refuses one that is not installed as a conflict', async () => {
    const server = await modelsServer({ models: [catalogueModel('base', { installed: true })] });
    const { service } = serviceFor(server, 'admin');
    expect((await service.remove('base')).models[0]?.installed).toBe(false);
    const error = await service.remove('base').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).error.code).toBe('conflict');
  });

  it('follows a download that was already running when the list is loaded', async () => {
    const server = await modelsServer();
    const admin = serviceFor(server, 'admin');
    await admin.service.download('tiny');
    lifetimes[0]!.abort(); // that window closed; a new one opens
    const next = serviceFor(server, 'admin');
    await next.service.list();
    await until(() => next.progress().some((p) => p.status === 'COMPLETED'));
  });

  it('a key without OPERATOR sees the catalogue, no offer, and a forbidden refusal that names the role', async () => {
    const server = await modelsServer();
    const { service } = serviceFor(server, 'reader');
    expect(await service.list()).toMatchObject({ canManage: false, offer: false });
    const error = (await service.download('base').catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.error.code).toBe('forbidden');
    expect(error.message).toContain('OPERATOR');
  });

  it('no disk space on the server is its own kind of failure, with what to do', async () => {
    const server = await modelsServer({
      failWith: {
        status: 507,
        code: ErrorCode.INSUFFICIENT_STORAGE,
        message: 'The model needs 148 MB; 20 MB are free.',
      },
    });
    const { service } = serviceFor(server, 'admin');
    const error = (await service.download('base').catch((e: unknown) => e)) as ApiError;
    expect(error.error).toMatchObject({ code: 'insufficient-storage', errorId: 'err-1' });
    // The app's reason (free space, or a smaller model), with the server's figures as the detail.
    expect(error.error).toMatchObject({
      reason: 'app.no-space-model',
      detail: 'The model needs 148 MB; 20 MB are free.',
    });
    expect(server.requests.filter((r) => r.startsWith('POST')).length).toBe(1);
  });

  it('an unknown model is not-found with a message about models', async () => {
    const server = await modelsServer();
    const { service } = serviceFor(server, 'admin');
    const error = (await service.download('huge').catch((e: unknown) => e)) as ApiError;
    expect(error.error.code).toBe('not-found');
    expect(error.error.reason).toBe('app.not-found-model');
  });

  it('an answer that does not match the contract is refused, not shown', async () => {
    const server = await modelsServer({ body: { models: [{ name: 'base' }], serving: {}, can_manage: true } });
    const { service } = serviceFor(server, 'admin');
    const error = (await service.list().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.error.code).toBe('server');
  });

  it('dismissing the offer is remembered and ends it', async () => {
    const server = await modelsServer();
    const { service, isDismissed } = serviceFor(server, 'admin');
    expect((await service.dismissOffer()).offer).toBe(false);
    expect(isDismissed()).toBe(true);
    expect((await service.list()).offer).toBe(false);
  });

  it('offers nothing to a server that already transcribes with a remote speech service', async () => {
    const server = await modelsServer({ engine: 'remote' });
    const { service } = serviceFor(server, 'admin');
    expect(await service.list()).toMatchObject({ recommended: 'base', offer: false });
  });

  it("recommends nothing for a server elsewhere: its memory is not this computer's", async () => {
    const server = await modelsServer();
    const { service } = serviceFor(server, 'admin', {
      profile: { id: 'p', name: 'Office', kind: 'remote', baseUrl: 'https://kikitori.example.com' },
    });
    // The client still talks to the loopback server; only the profile says where the server is.
    expect(await service.list()).toMatchObject({ local: false, recommended: null, offer: false, canManage: true });
  });

  it('knows which servers run on this computer', () => {
    const remote = (baseUrl: string): ServerProfile => ({ id: 'p', name: 'n', kind: 'remote', baseUrl });
    expect(isOnThisComputer({ id: 'embedded', name: 'This computer', kind: 'embedded', baseUrl: '' })).toBe(true);
    expect(isOnThisComputer(remote('http://127.0.0.1:8080'))).toBe(true);
    expect(isOnThisComputer(remote('http://localhost:8080'))).toBe(true);
    expect(isOnThisComputer(remote('http://[::1]:8080'))).toBe(true);
    expect(isOnThisComputer(remote('https://kikitori.example.com'))).toBe(false);
    expect(isOnThisComputer(remote('http://127.example.com'))).toBe(false);
  });
});
