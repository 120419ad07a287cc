// transcripts:revisions, transcripts:revision-changes and transcripts:restore-revision (History) through
// the IPC handlers against the real server: listing with authors, what a revision changed, restoring as a
// new revision, and refusing hostile input clearly.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcChannel, IpcRequest } from '../../../../src-shared/ipc-contract.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { invokeHandler, type HandlerMap } from '../../../../src-main/ipc/handler-registry.js';
import type { HandlerContext } from '../../../../src-main/ipc/handlers/handler-context.js';
import { transcriptHandlers } from '../../../../src-main/ipc/handlers/transcripts.js';
import type { ProfileSession } from '../../../../src-main/profile-session.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import { completedTranscription, notificationRecorder, shortSpeech, editingServices } from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('transcripts:revisions and transcripts:restore-revision', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let foreignId: string;
  let store: CacheStore;
  let handlers: HandlerMap;
  const notes = notificationRecorder<NotificationEvent>();
  const dir = tempDir('kikitori-history-');

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice');
    const speech = await shortSpeech();
    id = await completedTranscription(server, key, speech);
    foreignId = await completedTranscription(server, await server.key('other-team', 'mallory'), speech);
    store = openCacheStore(':memory:');
    const { client, transcripts, edits } = editingServices({
      connection: () => ({ baseUrl: server.url, apiKey: key }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    });
    const session = { client, transcripts, edits } as unknown as ProfileSession;
    handlers = transcriptHandlers({ session: () => session } as unknown as HandlerContext) as HandlerMap;
    await transcripts.detail(id);
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = <C extends IpcChannel>(channel: C, request: unknown) =>
    invokeHandler(handlers, channel, request as IpcRequest<C>);
  const ok = async <C extends IpcChannel>(channel: C, request: unknown) => {
    const result = await call(channel, request);
    if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };

  it('lists revisions with their authors, and restores one as a new revision shown at once', async () => {
    const first = store.documents.get(id)!.segments[0]!;
    await ok('transcripts:edit-document', {
      id,
      operation: { kind: 'text', segmentId: first.id, text: 'an edit to take back' },
    });
    const history = await ok('transcripts:revisions', { id });
    expect(history.latest).toBe(2);
    expect(history.revisions.map((r) => [r.revision, r.source, r.author])).toEqual([
      [1, 'recognized', expect.any(String)],
      [2, 'edit', 'alice name'],
    ]);
    expect(history.revisions[1]!.summary).not.toBe('');
    expect(Date.parse(history.revisions[1]!.createdAt)).not.toBeNaN();

    // What the edit changed: that segment, before and after; revision 1 is the recognized transcript.
    const changes = await ok('transcripts:revision-changes', { id, revision: 2 });
    expect(changes).toEqual({
      revision: 2,
      language: 'en',
      segments: [
        {
          segmentId: first.id,
          start: first.start,
          before: { text: first.text, speaker: first.speaker },
          after: { text: 'an edit to take back', speaker: first.speaker },
        },
      ],
      moreSegments: 0,
      speakerNames: [],
      replacements: [],
    });
    expect(await ok('transcripts:revision-changes', { id, revision: 1 })).toMatchObject({ revision: 1, segments: [] });

    const restored = await ok('transcripts:restore-revision', { id, revision: 1 });
    expect(restored.document!.segments[0]!.text).toBe(first.text);
    expect(restored.document!.revision).toBe(3);
    expect((await ok('transcripts:revisions', { id })).revisions.at(-1)).toMatchObject({
      revision: 3,
      source: 'restore',
      author: 'alice name',
    });
  });

  it("refuses another team's transcript as not found, and malformed requests by field", async () => {
    for (const channel of ['transcripts:revisions', 'transcripts:restore-revision'] as const)
      expect(await call(channel, { id: foreignId, revision: 1 })).toMatchObject({ ok: false });
    for (const revision of [1, 2])
      expect(await call('transcripts:revision-changes', { id: foreignId, revision })).toMatchObject({
        ok: false,
        error: { code: 'not-found' },
      });
    expect(await call('transcripts:revisions', { id: foreignId })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(await call('transcripts:restore-revision', { id: foreignId, revision: 1 })).toMatchObject({
      ok: false,
      error: { code: expect.stringMatching(/^(not-found|conflict)$/) },
    });
    for (const channel of ['transcripts:restore-revision', 'transcripts:revision-changes'] as const)
      for (const revision of [0, -1, 1.5, '1', null, undefined, Number.MAX_SAFE_INTEGER + 2])
        expect(await call(channel, { id, revision })).toMatchObject({
          ok: false,
          error: { code: 'validation', field: 'revision' },
        });
    expect(await call('transcripts:revision-changes', { id, revision: 1, extra: true })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'extra' },
    });
    expect(await call('transcripts:revision-changes', { id: '../etc', revision: 1 })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'id' },
    });
    expect(await call('transcripts:restore-revision', { id, revision: 1, extra: true })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'extra' },
    });
    expect(await call('transcripts:revisions', { id: 'a/b' })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'id' },
    });
    // A revision past the latest: the server's refusal, naming the field.
    for (const channel of ['transcripts:restore-revision', 'transcripts:revision-changes'] as const)
      expect(await call(channel, { id, revision: 999 })).toMatchObject({
        ok: false,
        error: { code: 'validation', field: 'revision' },
      });
  });

  it('refuses to restore over a change made on the server meanwhile, and says what to do', async () => {
    const latest = (await ok('transcripts:revisions', { id })).latest;
    const lines = store.documents.get(id)!.segments.map((s, i) => (i === 0 ? 'a teammate was here' : s.text));
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: lines.join('\n') });
    const refused = await call('transcripts:restore-revision', { id, revision: 1 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect(refused.ok ? null : refused.error.reason).toBe('app.restore-changed');
    expect((await ok('transcripts:revisions', { id })).latest).toBe(latest + 1);
  });
});
