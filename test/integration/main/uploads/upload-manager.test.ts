import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/error-codes.js';
import type { UploadJob, UploadOptions } from '../../../../src-shared/ipc-contract.js';
import type { ApiClient } from '../../../../src-main/api-client/api-client.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { UploadManager, type UploadManagerOptions } from '../../../../src-main/uploads/upload-manager.js';
import {
  startTestServer,
  storedAudioPath,
  tempDir,
  waitForStatus,
  type TestServer,
} from '../../../support/test-server.js';
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

describe('upload manager', () => {
  let server: TestServer;
  let shortTtl: TestServer;
  let key: string;
  let shortTtlKey: string;
  let speech: string;
  let longer: string;
  const dir = tempDir('kikitori-uploads-');

  beforeAll(async () => {
    [server, shortTtl] = await Promise.all([
      startTestServer(),
      startTestServer({ env: { KIKITORI_UPLOAD_URL_TTL: '4' } }),
    ]);
    key = await server.key('team', 'alice', ['DELETE']);
    shortTtlKey = await shortTtl.key('team', 'alice', ['DELETE']);
    speech = await shortSpeech();
    // ~1 MB: speech then silence, long enough to interrupt mid-stream.
    longer = path.join(dir, 'longer.wav');
    await run('sox', [speech, longer, 'pad', '0', '30']);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), shortTtl?.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function manager(store: CacheStore, client: ApiClient, extra: Partial<UploadManagerOptions> = {}) {
    const events: UploadJob[] = [];
    const kept: string[] = [];
    const m = new UploadManager({
      uploads: store.uploads,
      client,
      chunkBytes: 8 * 1024,
      progressIntervalMs: 0,
      onChange: (job) => events.push(job),
      keepAudio: async (id) => void kept.push(id),
      ...extra,
    });
    return { m, events, kept };
  }

  const settled = (store: CacheStore, id: string) =>
    until(() => ['done', 'failed', 'cancelled'].includes(store.uploads.get(id)!.state) && store.uploads.get(id)!);
  const serverAudioSize = async (s: TestServer, id: string) => fs.statSync(await storedAudioPath(s, id)).size;

  it('streams real files two at a time with progress, then starts their transcriptions', async () => {
    const store = openCacheStore(':memory:');
    const started = new Map<string, string>();
    const { m, events, kept } = manager(store, clientOf(server, key), {
      onStarted: (transcription) => void started.set(transcription.transcription_id, transcription.updated_at),
    });
    const active = new Map<string, string>();
    let mostActive = 0;
    m.start();
    const files = ['one.wav', 'two.wav', 'three.wav'].map((name) => copyAs(speech, dir, name));
    const jobs = await m.add(files, OPTIONS);
    expect(jobs.map((j) => [j.fileName, j.state, j.size])).toEqual(
      files.map((f) => [path.basename(f), 'queued', fs.statSync(f).size]),
    );
    const done = await Promise.all(jobs.map((j) => settled(store, j.id)));
    for (const e of events) {
      active.set(e.id, e.state);
      mostActive = Math.max(
        mostActive,
        [...active.values()].filter((s) => s === 'uploading' || s === 'starting').length,
      );
    }
    expect(mostActive).toBe(2);
    for (const job of done) {
      expect(job).toMatchObject({ state: 'done', error: null, sentBytes: job.size });
      // The start, by the server's clock: the queue tells a record read before it from one read after.
      expect(job.startedAt).toBe(started.get(job.transcriptionId!));
      expect(events.find((e) => e.id === job.id && e.state === 'done')?.startedAt).toBe(job.startedAt);
      const progress = events.filter((e) => e.id === job.id && e.state === 'uploading').map((e) => e.sentBytes);
      expect(progress.length).toBeGreaterThan(3);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      expect(await serverAudioSize(server, job.transcriptionId!)).toBe(job.size);
      const record = await server.api(key, 'GET', `/api/v1/transcriptions/${job.transcriptionId}`);
      expect(record.json).toMatchObject({ name: job.fileName, upload_status: 'COMPLETED', language: ['en'] });
      expect(['CONVERTING', 'IN_PROGRESS', 'COMPLETED']).toContain(record.json.status);
    }
    expect(kept.sort()).toEqual(done.map((j) => j.transcriptionId).sort());
    expect(m.list().map((j) => j.state)).toEqual(['done', 'done', 'done']);
    await m.stop();
    await Promise.all(done.map((j) => server.api(key, 'DELETE', `/api/v1/transcriptions/${j.transcriptionId}`)));
  });

  it('refuses unreadable or empty files before queueing anything', async () => {
    const store = openCacheStore(':memory:');
    const { m } = manager(store, clientOf(server, key));
    const empty = path.join(dir, 'empty.wav');
    fs.writeFileSync(empty, '');
    await expect(m.add([speech, path.join(dir, 'missing.wav')], OPTIONS)).rejects.toMatchObject({
      error: { code: 'validation', field: 'files' },
    });
    await expect(m.add([empty], OPTIONS)).rejects.toMatchObject({ error: { code: 'validation' } });
    expect(m.list()).toEqual([]);
  });

  it('refuses files that are not audio or video by their first bytes, whatever their name (issue 12)', async () => {
    const store = openCacheStore(':memory:');
    const { m } = manager(store, clientOf(server, key));
    const notes = path.join(dir, 'notes.wav');
    fs.writeFileSync(notes, 'Meeting notes\n- budget moved to Friday\n- 会議は金曜日に移動\n');
    const pdf = path.join(dir, 'agenda.mp3');
    fs.writeFileSync(
      pdf,
      Buffer.concat([
        Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
        Buffer.alloc(2048, 7),
      ]),
    );
    await expect(m.add([speech, notes], OPTIONS)).rejects.toMatchObject({
      error: {
        code: 'validation',
        field: 'files',
        reason: 'app.not-media-text',
        params: { name: 'notes.wav' },
      },
    });
    await expect(m.add([pdf], OPTIONS)).rejects.toMatchObject({
      error: { field: 'files', reason: 'app.not-media', params: { kind: 'PDF' } },
    });
    expect(m.list()).toEqual([]);
    // Real recordings in other containers pass: the server decodes them.
    for (const [ext, args] of [
      ['mp3', []],
      ['m4a', []],
      ['flac', []],
      ['ogg', ['-c:a', 'libopus']],
      ['webm', ['-c:a', 'libopus']],
    ] as const) {
      const file = path.join(dir, `speech.${ext}`);
      await run('ffmpeg', ['-loglevel', 'error', '-y', '-i', speech, ...args, file]);
      const jobs = await m.add([file], OPTIONS);
      expect(jobs).toHaveLength(1);
      await m.cancel(jobs[0]!.id);
    }
  });

  it('cancels a running upload and deletes its ticket on the server', async () => {
    const store = openCacheStore(':memory:');
    // Assigned in a callback: a plain annotation would narrow it to null and hide the await below.
    let cancelled = null as Promise<void> | null;
    const { m } = manager(store, clientOf(server, key), {
      onChange: (job) => {
        if (job.state === 'uploading' && job.sentBytes > 0 && !cancelled) cancelled = m.cancel(job.id);
      },
    });
    m.start();
    const [job] = await m.add([copyAs(longer, dir, 'cancel-me.wav')], OPTIONS);
    await until(() => cancelled !== null);
    await cancelled;
    const after = store.uploads.get(job!.id)!;
    expect(after.state).toBe('cancelled');
    expect(after.sentBytes).toBeLessThan(after.size);
    await until(
      async () => (await server.api(key, 'GET', `/api/v1/transcriptions/${after.transcriptionId}`)).status === 404,
    );
    await m.stop();
  });

  it('resumes an interrupted plain-PUT upload after a restart, from byte 0 with the same ticket', async () => {
    // A plain PUT (what an upload URL that is not a tus endpoint gets) cannot resume; tus can (resumable-upload.test.ts).
    const file = path.join(dir, 'cache-restart.sqlite');
    const first = openCacheStore(file);
    let stopping = null as Promise<void> | null;
    const before = manager(first, clientOf(server, key), {
      resumable: false,
      onChange: (job) => {
        if (job.state === 'uploading' && job.sentBytes > 0 && !stopping) stopping = before.m.stop();
      },
    });
    before.m.start();
    const [job] = await before.m.add([copyAs(longer, dir, 'restart.wav')], OPTIONS);
    await until(() => stopping !== null);
    await stopping;
    const interrupted = first.uploads.get(job!.id)!;
    expect(interrupted).toMatchObject({ state: 'queued', sentBytes: 0, transcriptionId: expect.any(String) });
    first.close();

    // The app starts again.
    const second = openCacheStore(file);
    const after = manager(second, clientOf(server, key), { resumable: false });
    after.m.start();
    const finished = await settled(second, job!.id);
    expect(finished).toMatchObject({ state: 'done', transcriptionId: interrupted.transcriptionId });
    expect(await serverAudioSize(server, finished.transcriptionId!)).toBe(fs.statSync(longer).size);
    expect(after.events.filter((e) => e.state === 'uploading')[0]?.sentBytes).toBe(0);
    await after.m.stop();
    second.close();
    await server.api(key, 'DELETE', `/api/v1/transcriptions/${finished.transcriptionId}`);
  });

  it('requests a new ticket when the old one expired, whether it knows the expiry or the server says so', async () => {
    const client = clientOf(shortTtl, shortTtlKey);
    const store = openCacheStore(':memory:');
    const queue = (name: string, ticket: { transcription_id: string; audio_upload_url: string }, expiresAt: string) => {
      const row = store.uploads.insert({
        id: name,
        filePath: copyAs(speech, dir, `${name}.wav`),
        fileName: `${name}.wav`,
        size: fs.statSync(speech).size,
        options: OPTIONS,
        createdAt: new Date().toISOString(),
      });
      store.uploads.update(row.id, {
        transcriptionId: ticket.transcription_id,
        uploadUrl: ticket.audio_upload_url,
        uploadExpiresAt: expiresAt,
      });
    };
    // Known expiry: the stored ticket says it has expired.
    const stale = await client.requestUpload({ filename: 'known.wav' });
    queue('known', stale, new Date(Date.now() - 1000).toISOString());
    // Unknown to us: the stored expiry looks fine, but the server has expired (and cancelled) the ticket.
    const cancelled = await client.requestUpload({ filename: 'server-said.wav' });
    await until(async () => (await client.getTranscription(cancelled.transcription_id)).status === 'CANCELLED');
    queue('server-said', cancelled, new Date(Date.now() + 3600_000).toISOString());

    const { m } = manager(store, client);
    m.start();
    for (const [id, old] of [
      ['known', stale],
      ['server-said', cancelled],
    ] as const) {
      const done = await settled(store, id);
      expect(done.state).toBe('done');
      expect(done.transcriptionId).not.toBe(old.transcription_id);
      await waitForStatus(shortTtl, shortTtlKey, done.transcriptionId!, ['CONVERTING', 'IN_PROGRESS', 'COMPLETED']);
      await shortTtl.api(shortTtlKey, 'DELETE', `/api/v1/transcriptions/${done.transcriptionId}`);
    }
    await m.stop();
  });

  it("does not send a refused upload again before the server's Retry-After", async () => {
    // A server that hands out tickets and answers every PUT 429, asking for an hour.
    const puts = new Map<string, number>();
    let tickets = 0;
    const fake = http.createServer((req, res) => {
      req.resume();
      const url = new URL(req.url!, 'http://x');
      if (req.method === 'POST' && url.pathname === '/api/v1/transcriptions/upload') {
        const id = `t${++tickets}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            transcription_id: id,
            dictionary_id: null,
            team_id: 'team',
            audio_upload_url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/files/upload/${id}?signature=s`,
            transcription_model: 'default',
            audio_upload_expires_at: new Date(Date.now() + 3600_000).toISOString(),
            max_upload_bytes: 1e9,
            language: ['en'],
          }),
        );
      } else if (req.method === 'PUT') {
        const id = url.pathname.split('/')[3]!;
        puts.set(id, (puts.get(id) ?? 0) + 1);
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end(
          JSON.stringify({ error_id: 'r', error_code: ErrorCode.RATE_LIMITED, error_message: 'Too many requests.' }),
        );
      } else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const store = openCacheStore(':memory:');
    // The clock stands still: only the Retry-After, not the backoff (0 here), keeps the first job waiting.
    const { m } = manager(
      store,
      clientOf({ url: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` }, key, { retry: { retries: 0 } }),
      { retryDelayMs: () => 0, now: () => 1_000_000 },
    );
    try {
      m.start();
      const [first] = await m.add([copyAs(speech, dir, 'limited-1.wav')], OPTIONS);
      await until(() => store.uploads.get(first!.id)!.error?.code === 'server');
      // Another file makes the manager look at its queue again: it starts that one, not the first.
      const [second] = await m.add([copyAs(speech, dir, 'limited-2.wav')], OPTIONS);
      await until(() => store.uploads.get(second!.id)!.error?.code === 'server');
      expect(store.uploads.get(first!.id)).toMatchObject({ state: 'queued' });
      expect(Object.fromEntries(puts)).toEqual({ t1: 1, t2: 1 });
    } finally {
      await m.stop();
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  });

  it('waits and retries while the server is unreachable', async () => {
    const store = openCacheStore(':memory:');
    let url = 'http://127.0.0.1:9'; // nothing there (and a port fetch refuses outright)
    const { ApiClient } = await import('../../../../src-main/api-client/api-client.js');
    const client = new ApiClient({ connection: () => ({ baseUrl: url, apiKey: key }), retry: { retries: 0 } });
    const { m } = manager(store, client, { retryDelayMs: () => 60_000 });
    m.start();
    const [job] = await m.add([copyAs(speech, dir, 'offline.wav')], OPTIONS);
    const waiting = await until(() => store.uploads.get(job!.id)!.error && store.uploads.get(job!.id)!);
    expect(waiting).toMatchObject({ state: 'queued', error: { code: 'offline' } });
    url = server.url; // back online
    m.kick();
    expect((await settled(store, job!.id)).state).toBe('done');
    await m.stop();
    await server.api(key, 'DELETE', `/api/v1/transcriptions/${store.uploads.get(job!.id)!.transcriptionId}`);
  });
});
