import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcRequest, IpcResponse } from '../../../../src-shared/ipc-contract.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { EditService } from '../../../../src-main/edits/edit-service.js';
import { invokeHandler, type HandlerMap } from '../../../../src-main/ipc/handler-registry.js';
import type { HandlerContext } from '../../../../src-main/ipc/handlers/handler-context.js';
import { transcriptHandlers } from '../../../../src-main/ipc/handlers/transcripts.js';
import type { ProfileSession } from '../../../../src-main/profile-session.js';
import { TranscriptService } from '../../../../src-main/transcripts/transcript-service.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import {
  completedTranscription,
  deadUrl,
  notificationRecorder,
  shortSpeech,
  editingServices,
} from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('transcripts:resolve-conflict', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let offlineUrl: string;
  let url: string;
  let store: CacheStore;
  let transcripts: TranscriptService;
  let edits: EditService;
  let handlers: HandlerMap;
  const notes = notificationRecorder<NotificationEvent>();
  const dir = tempDir('kikitori-resolve-');

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice');
    offlineUrl = await deadUrl();
    url = server.url;
    id = await completedTranscription(server, key, await shortSpeech());
    store = openCacheStore(':memory:');
    ({ transcripts, edits } = editingServices({
      connection: () => ({ baseUrl: url, apiKey: key }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    }));
    const session = { transcripts, edits } as unknown as ProfileSession;
    handlers = transcriptHandlers({ session: () => session } as unknown as HandlerContext) as HandlerMap;
    await transcripts.detail(id); // caches the record, the document and the server's review
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const resolve = (request: unknown) =>
    invokeHandler(handlers, 'transcripts:resolve-conflict', request as IpcRequest<'transcripts:resolve-conflict'>);
  const resolved = async (keep: 'local' | 'server'): Promise<IpcResponse<'transcripts:resolve-conflict'>> => {
    const result = await resolve({ id, keep });
    if (!result.ok) throw new Error(`resolve-conflict failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  const serverReview = async () =>
    (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/review`)).json?.reviewed_text;
  const lines = (first: string) => {
    const doc = store.documents.get(id)!;
    return [first, ...doc.segments.slice(1).map((s) => s.text)].join('\n');
  };

  /** Corrects the first segment offline while "another computer" saves its own correction, then replays. */
  async function makeConflict(mine: string, theirs: string) {
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    const offline = await edits.edit(id, [{ id: first.id, text: mine }]);
    expect(offline).toMatchObject({ unsyncedEdits: true, conflict: null });
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: lines(theirs) });
    url = server.url;
    expect(await edits.flush()).toMatchObject({ sent: 0, conflicts: 1 });
    const detail = transcripts.detailFromCache(id);
    expect(detail.unsyncedEdits).toBe(true);
    expect(detail.conflict).toMatchObject({ code: 'conflict', reason: 'app.edits-conflict' });
    expect(detail.document!.segments[0]!.text).toBe(mine);
    expect(await serverReview()).toBe(lines(theirs));
  }

  it('has no conflict on a fresh transcript', () => {
    expect(transcripts.detailFromCache(id)).toMatchObject({ unsyncedEdits: false, conflict: null });
  });

  it('validates the payload', async () => {
    expect(await resolve({ id, keep: 'both' })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'keep' },
    });
    expect(await resolve({ id: 'a/b', keep: 'local' })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'id' },
    });
    expect(await resolve({ id, keep: 'local', extra: true })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'extra' },
    });
    expect(await resolve(undefined)).toMatchObject({ ok: false, error: { code: 'validation' } });
  });

  it("keeps this computer's corrections: sends them over the server's", async () => {
    await makeConflict('mine, kept on purpose', 'theirs, to be replaced');
    const detail = await resolved('local');
    expect(detail).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(detail.document!.segments[0]!.text).toBe('mine, kept on purpose');
    expect(await serverReview()).toBe(lines('mine, kept on purpose'));
    expect(store.outbox.all()).toHaveLength(0);
  });

  it("uses the server's text: drops the local corrections and leaves the server alone", async () => {
    await makeConflict('mine, to be dropped', 'theirs, kept');
    const detail = await resolved('server');
    expect(detail).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(detail.document!.segments[0]!.text).toBe('theirs, kept');
    expect(transcripts.detailFromCache(id).document!.segments[0]!.text).toBe('theirs, kept');
    // The cache holds the server's latest revision itself, with no local copy on top.
    expect(store.documents.get(id)!.segments[0]!.text).toBe('theirs, kept');
    expect(transcripts.detailFromCache(id).document).toEqual(store.documents.get(id));
    expect(await serverReview()).toBe(lines('theirs, kept'));
    expect(store.outbox.all()).toHaveLength(0);
    expect(store.search.search('dropped')).toHaveLength(0);
  });

  it('never drops a correction that is only waiting to be sent', async () => {
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    await edits.edit(id, [{ id: first.id, text: 'waiting offline' }]);
    const detail = await resolved('server');
    expect(detail).toMatchObject({ unsyncedEdits: true, conflict: null });
    expect(detail.document!.segments[0]!.text).toBe('waiting offline');
    url = server.url;
    expect(await edits.flush()).toMatchObject({ sent: 1, conflicts: 0 });
    expect(await serverReview()).toBe(lines('waiting offline'));
  });
});
