// A server without revisions (any service that implements the spec: no `revision` in its documents, no
// /revisions routes) keeps the review-text path of decision 0007: edits saved and queued as the whole
// review text, checked against the server's before sending, a conflict settled whole, undo for this run.
// The real server is reached through a proxy that hides its revisions.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import {
  completedTranscription,
  deadUrl,
  editingServices,
  notificationRecorder,
  shortSpeech,
} from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

/** Forwards to `target`, answering 404 for revisions and leaving `revision` out of every JSON answer. */
async function withoutRevisions(target: string): Promise<{ url: string; close: () => Promise<void> }> {
  let url = '';
  const proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => void answer(req.url ?? '', req.method ?? 'GET', req.headers, Buffer.concat(chunks), res));
  });
  async function answer(
    route: string,
    method: string,
    incoming: http.IncomingHttpHeaders,
    body: Buffer,
    res: http.ServerResponse,
  ) {
    if (/\/revisions(\/|\?|$)/.test(route)) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error_id: 'proxy', error_code: 4040, error_message: 'Not found.' }));
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'x-api-key'])
      if (typeof incoming[name] === 'string') headers[name] = incoming[name];
    const upstream = await fetch(target + route, {
      method,
      headers,
      ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
    });
    const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
    let text = Buffer.from(await upstream.arrayBuffer()).toString('utf8');
    if (type.includes('json')) {
      text = JSON.stringify(JSON.parse(text.replaceAll(target, url)), (key, value) =>
        key === 'revision' ? undefined : value,
      );
    }
    res.writeHead(upstream.status, { 'content-type': type });
    res.end(text);
  }
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => proxy.close(() => resolve())) };
}

describe('edits on a server without revisions', () => {
  let server: TestServer;
  let proxy: { url: string; close: () => Promise<void> };
  let key: string;
  let id: string;
  let url: string;
  let offlineUrl: string;
  let store: CacheStore;
  let services: ReturnType<typeof editingServices>;
  const notes = notificationRecorder<NotificationEvent>();
  const dir = tempDir('kikitori-review-text-');

  beforeAll(async () => {
    server = await startTestServer();
    proxy = await withoutRevisions(server.url);
    key = await server.key('team', 'alice');
    offlineUrl = await deadUrl();
    url = proxy.url;
    id = await completedTranscription(server, key, await shortSpeech());
    store = openCacheStore(path.join(dir, 'cache.sqlite'));
    services = editingServices({
      connection: () => ({ baseUrl: url, apiKey: key }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    });
  });
  afterAll(async () => {
    store?.close();
    await proxy?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const serverReview = async () =>
    (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/review`)).json?.reviewed_text as string | undefined;
  const lines = (first: string) =>
    [
      first,
      ...store.documents
        .get(id)!
        .segments.slice(1)
        .map((s) => s.text),
    ].join('\n');

  it('saves an edit as the review text and shows it from there', async () => {
    const { transcripts, edits } = services;
    const recognized = (await transcripts.detail(id)).document!;
    expect(recognized.revision).toBeUndefined();
    const first = recognized.segments[0]!;
    const saved = await edits.edit(id, [{ id: first.id, text: 'reviewed without revisions' }]);
    expect(saved).toMatchObject({ unsyncedEdits: false, conflict: null, history: { undo: 1, redo: 0 } });
    expect(saved.document!.segments[0]!.text).toBe('reviewed without revisions');
    expect(await serverReview()).toBe(lines('reviewed without revisions'));
    // The cache keeps the server's document; what is shown is its review text mapped onto it.
    expect(store.documents.get(id)!.segments[0]!.text).toBe(first.text);
    expect(store.outbox.all()).toHaveLength(0);
    expect(transcripts.detailFromCache(id).document!.segments[0]!.text).toBe('reviewed without revisions');

    const undone = await edits.undo(id);
    expect(undone.document!.segments[0]!.text).toBe(first.text);
    expect(await serverReview()).toBe(lines(first.text));
  });

  it('queues an offline edit as the review text, and settles a conflict with another computer whole', async () => {
    const { edits } = services;
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    const offline = await edits.edit(id, [{ id: first.id, text: 'mine, offline' }]);
    expect(offline.unsyncedEdits).toBe(true);
    expect(store.outbox.all()).toMatchObject([{ kind: 'review', payload: { reviewedText: lines('mine, offline') } }]);
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: lines('theirs meanwhile') });

    url = proxy.url;
    expect(await edits.flush()).toMatchObject({ sent: 0, conflicts: 1 });
    const detail = edits.detail(id);
    expect(detail.conflict).toMatchObject({ code: 'conflict', reason: 'app.review-conflict' });
    expect(detail.conflictSegments).toBeUndefined();
    expect(detail.document!.segments[0]!.text).toBe('mine, offline');
    expect(await serverReview()).toBe(lines('theirs meanwhile'));

    const kept = await edits.resolveConflict(id, 'local');
    expect(kept).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(kept.document!.segments[0]!.text).toBe('mine, offline');
    expect(await serverReview()).toBe(lines('mine, offline'));
  });
});
