// The upload manager's tus uploads against the real server (decision 0032): after a dropped connection
// and after a restart of the manager, the upload continues from the server's offset, not from byte 0.
// A TCP proxy in front of the server counts what the client sends and can cut the connection mid-body.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadJob, UploadOptions } from '../../../../src-shared/ipc-contract.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { UploadManager, type UploadManagerOptions } from '../../../../src-main/uploads/upload-manager.js';
import { startTestServer, storedAudioPath, tempDir, type TestServer } from '../../../support/test-server.js';
import { clientOf, copyAs, shortSpeech, until } from '../main-test-support.js';

const run = promisify(execFile);
const OPTIONS: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A proxy to `target` that records each PATCH's Upload-Offset and the bytes sent, and cuts once past `cutAfter` bytes if asked. */
async function startProxy(target: string) {
  const { hostname, port } = new URL(target);
  const state = { sent: 0, patchOffsets: [] as number[], cutAfter: Number.POSITIVE_INFINITY, cuts: 0 };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      for (const match of text.matchAll(/^PATCH [^\r\n]+\r\n(?:[^\r\n]+\r\n)*?upload-offset: *(\d+)/gim))
        state.patchOffsets.push(Number(match[1]));
      state.sent += chunk.length;
      if (state.sent > state.cutAfter) {
        state.cutAfter = Number.POSITIVE_INFINITY;
        state.cuts += 1;
        // What was forwarded reaches the server; then both sides see the connection end mid-body.
        upstream.end();
        client.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    // A client that goes away still has its forwarded bytes delivered; the server going away ends the client.
    client.on('error', () => upstream.end());
    client.on('close', () => upstream.end());
    upstream.on('error', () => client.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    state,
    reset() {
      Object.assign(state, { sent: 0, patchOffsets: [], cutAfter: Number.POSITIVE_INFINITY, cuts: 0 });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('resumable uploads in the upload manager', () => {
  let server: TestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let key: string;
  let longer: string;
  let size: number;
  const dir = tempDir('kikitori-resumable-');

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice', ['DELETE']);
    // The ticket's upload URL names the server's own address; the client reaches it through the proxy.
    proxy = await startProxy(server.url);
    // ~1 MB of real speech then silence.
    longer = path.join(dir, 'longer.wav');
    await run('sox', [await shortSpeech(), longer, 'pad', '0', '30']);
    size = fs.statSync(longer).size;
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A client that sends everything through the proxy, the signed upload URLs included. */
  function proxiedClient() {
    const client = clientOf(proxy, key);
    const requestUpload = client.requestUpload.bind(client);
    client.requestUpload = async (...args) => {
      const ticket = await requestUpload(...args);
      return { ...ticket, audio_upload_url: ticket.audio_upload_url.replace(server.url, proxy.url) };
    };
    return client;
  }

  function manager(store: CacheStore, extra: Partial<UploadManagerOptions> = {}) {
    const events: UploadJob[] = [];
    const m = new UploadManager({
      uploads: store.uploads,
      client: proxiedClient(),
      progressIntervalMs: 0,
      retryDelayMs: () => 0,
      onChange: (job) => events.push(job),
      ...extra,
    });
    return { m, events };
  }

  const settled = (store: CacheStore, id: string) =>
    until(() => ['done', 'failed', 'cancelled'].includes(store.uploads.get(id)!.state) && store.uploads.get(id)!);

  it('continues from the server’s offset after the connection drops mid-upload', async () => {
    proxy.reset();
    // Cut once the client has sent about 40% of the file.
    proxy.state.cutAfter = Math.floor(size * 0.4);
    const store = openCacheStore(':memory:');
    const { m, events } = manager(store);
    m.start();
    const [job] = await m.add([copyAs(longer, dir, 'dropped.wav')], OPTIONS);
    const done = await settled(store, job!.id);
    await m.stop();
    expect(done).toMatchObject({ state: 'done', error: null, sentBytes: size });
    expect(proxy.state.cuts).toBe(1);
    // Two PATCHes: the first from 0, the second from where the server's bytes ended, well past 0.
    expect(proxy.state.patchOffsets).toHaveLength(2);
    expect(proxy.state.patchOffsets[0]).toBe(0);
    expect(proxy.state.patchOffsets[1]).toBeGreaterThan(size * 0.3);
    // Bytes sent in all: the file about once, not 1.4 times (it would be from byte 0).
    expect(proxy.state.sent).toBeLessThan(size * 1.15);
    expect(sha256(await storedAudioPath(server, done.transcriptionId!))).toBe(sha256(longer));
    // Progress kept coming, and the retry's progress started from the offset.
    const progress = events.filter((e) => e.state === 'uploading' && e.sentBytes > 0).map((e) => e.sentBytes);
    expect(progress.length).toBeGreaterThan(2);
    expect(store.uploads.get(job!.id)!.resumeUrl).toBeNull();
  });

  it('continues from the server’s offset after the manager restarts with the same persisted state', async () => {
    proxy.reset();
    const file = path.join(dir, 'cache-restart.sqlite');
    const first = openCacheStore(file);
    let stopping = null as Promise<void> | null;
    // On loopback a whole file can be on its way before an app quits, so the network drops at half of it
    // and the app quits while it waits to retry: the server holds about half when the app starts again.
    proxy.state.cutAfter = size * 0.5;
    const before = manager(first, {
      retryDelayMs: () => 60_000,
      onChange: (job) => {
        if (proxy.state.cuts > 0 && job.state !== 'uploading' && !stopping) stopping = before.m.stop();
      },
    });
    before.m.start();
    const [job] = await before.m.add([copyAs(longer, dir, 'restart.wav')], OPTIONS);
    await until(() => stopping !== null);
    await stopping;
    const interrupted = first.uploads.get(job!.id)!;
    expect(interrupted).toMatchObject({
      state: 'queued',
      transcriptionId: expect.any(String),
      resumeUrl: expect.stringContaining('/tus/'),
    });
    first.close();
    const sentBeforeRestart = proxy.state.sent;

    // The app starts again: a new manager on the same cache file.
    const second = openCacheStore(file);
    const after = manager(second);
    after.m.start();
    const finished = await settled(second, job!.id);
    await after.m.stop();
    expect(finished).toMatchObject({ state: 'done', transcriptionId: interrupted.transcriptionId });
    expect(proxy.state.patchOffsets[0]).toBe(0);
    const resumedAt = proxy.state.patchOffsets.at(-1)!;
    expect(resumedAt).toBeGreaterThan(size * 0.2);
    // After the restart the client sent only what the server lacked (plus headers), not the whole file.
    expect(proxy.state.sent - sentBeforeRestart).toBeLessThan(size - resumedAt + 16 * 1024);
    expect(after.events.find((e) => e.state === 'uploading' && e.sentBytes > 0)!.sentBytes).toBeGreaterThanOrEqual(
      resumedAt,
    );
    expect(sha256(await storedAudioPath(server, finished.transcriptionId!))).toBe(sha256(longer));
    second.close();
  });

  it('falls back to a plain PUT where the upload URL is not a tus endpoint', async () => {
    const plainPut = await startPlainPutServer();
    try {
      const store = openCacheStore(':memory:');
      const client = clientOf(server, key);
      client.requestUpload = async () =>
        ({
          transcription_id: 'plain',
          audio_upload_url: `${plainPut.url}/bucket/object?X-Amz-Signature=abc`,
        }) as Awaited<ReturnType<typeof client.requestUpload>>;
      client.transcribe = async () =>
        ({ transcription_id: 'plain', status: 'CONVERTING' }) as Awaited<ReturnType<typeof client.transcribe>>;
      const m = new UploadManager({
        uploads: store.uploads,
        client,
        progressIntervalMs: 0,
        retryDelayMs: () => 0,
        onChange: () => undefined,
      });
      m.start();
      const [job] = await m.add([copyAs(longer, dir, 'plain.wav')], OPTIONS);
      const done = await settled(store, job!.id);
      await m.stop();
      expect(done.state).toBe('done');
      expect(plainPut.methods).toEqual(['OPTIONS', 'PUT']);
      expect(createHash('sha256').update(plainPut.received).digest('hex')).toBe(sha256(longer));
    } finally {
      await plainPut.close();
    }
  });
});

/** An object store's presigned URL, as far as the client can tell: PUT stores the body, OPTIONS knows no tus. */
async function startPlainPutServer() {
  const http = await import('node:http');
  const methods: string[] = [];
  let received = Buffer.alloc(0);
  const server = http.createServer((request, response) => {
    methods.push(request.method!);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'PUT') {
        received = Buffer.concat(chunks);
        response.writeHead(200).end();
      } else
        response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    methods,
    get received() {
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
