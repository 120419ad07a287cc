// Offline edits queued as revision operations (decision 0054), against the real server and a real cache file:
// rebased over a teammate's edit of another segment, a conflict per segment over the same one (with the
// teammate's name) settled through 'transcripts:settle-conflict', queued edits and undo surviving a restart.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcChannel, IpcRequest } from '../../../../src-shared/ipc-contract.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { invokeHandler, type HandlerMap } from '../../../../src-main/ipc/handler-registry.js';
import type { HandlerContext } from '../../../../src-main/ipc/handlers/handler-context.js';
import { transcriptHandlers } from '../../../../src-main/ipc/handlers/transcripts.js';
import type { ProfileSession } from '../../../../src-main/profile-session.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import {
  completedTranscription,
  deadUrl,
  editingServices,
  notificationRecorder,
  shortSpeech,
} from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('offline edits as revision operations', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  let id: string;
  let foreignId: string;
  let offlineUrl: string;
  let url: string;
  const dir = tempDir('kikitori-offline-operations-');
  const cacheFile = path.join(dir, 'cache.sqlite');
  const notes = notificationRecorder<NotificationEvent>();
  let store: CacheStore | null = null;

  /** This computer's services over the cache file: a new one is a new run of the app. */
  function start() {
    store?.close();
    store = openCacheStore(cacheFile);
    const services = editingServices({
      connection: () => ({ baseUrl: url, apiKey: alice }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    });
    const session = services as unknown as ProfileSession;
    const handlers = transcriptHandlers({ session: () => session } as unknown as HandlerContext) as HandlerMap;
    const call = <C extends IpcChannel>(channel: C, request: unknown) =>
      invokeHandler(handlers, channel, request as IpcRequest<C>);
    return { ...services, store, call };
  }

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.key('team', 'alice');
    bob = await server.key('team', 'bob');
    offlineUrl = await deadUrl();
    url = server.url;
    const speech = await shortSpeech();
    id = await completedTranscription(server, alice, speech);
    foreignId = await completedTranscription(server, await server.key('other-team', 'mallory'), speech);
    // Two segments to edit apart: the recognized one split online.
    const here = start();
    const first = (await here.transcripts.detail(id)).document!.segments[0]!;
    expect(first.words.length).toBeGreaterThan(2);
    await here.edits.apply(id, [{ kind: 'split', segmentId: first.id, wordIndex: 2 }]);
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const latest = async () => {
    const list = (await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions`)).json as {
      latest_revision: number;
      revisions: Array<{ revision: number; source: string; author: { name: string } }>;
    };
    const revision = await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions/${list.latest_revision}`);
    return { ...list, document: (revision.json as { document: TranscriptDocument }).document };
  };
  /** A teammate's edit on the server, made on the latest revision. */
  const teammateEdits = async (segmentId: number, text: string) => {
    const { latest_revision } = await latest();
    const made = await server.api(bob, 'POST', `/api/v1/transcriptions/${id}/revisions`, {
      base_revision: latest_revision,
      operations: [{ kind: 'text', segmentId, text }],
    });
    expect(made.status).toBe(200);
  };

  it("sends an offline edit of one segment over a teammate's edit of another: both survive", async () => {
    const here = start();
    const [a, b] = here.store.documents.get(id)!.segments;
    const base = here.store.documents.get(id)!.revision!;
    url = offlineUrl;
    const offline = await here.edits.edit(id, [{ id: a!.id, text: 'alice corrected this offline' }]);
    expect(offline).toMatchObject({ unsyncedEdits: true, conflict: null });
    expect(offline.document!.segments[0]!.text).toBe('alice corrected this offline');
    // Queued as the operation itself, on the revision it was made on; nothing kept as a second copy.
    expect(here.store.outbox.all()).toMatchObject([
      {
        kind: 'revision-operations',
        base: { revision: base },
        payload: { operations: [{ kind: 'text', segmentId: a!.id, text: 'alice corrected this offline' }] },
      },
    ]);
    expect(here.store.documents.get(id)!.segments[0]!.text).toBe(a!.text);
    expect(here.store.search.search('offline')[0]).toMatchObject({ transcriptionId: id, segmentId: a!.id });

    await teammateEdits(b!.id, 'bob corrected the second part');
    url = server.url;
    expect(await here.edits.flush()).toEqual({ sent: 1, conflicts: 0, interrupted: false });

    const server_ = await latest();
    expect(server_.document.segments.map((s) => s.text)).toEqual([
      'alice corrected this offline',
      'bob corrected the second part',
    ]);
    expect(server_.revisions.slice(-2).map((r) => [r.source, r.author.name])).toEqual([
      ['edit', 'bob name'],
      ['edit', 'alice name'],
    ]);
    const shown = here.edits.detail(id);
    expect(shown).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(shown.conflictSegments).toBeUndefined();
    expect(shown.document!.segments.map((s) => s.text)).toEqual(server_.document.segments.map((s) => s.text));
    expect(here.store.documents.get(id)!.revision).toBe(server_.latest_revision);
    expect(here.store.outbox.all()).toHaveLength(0);
  });

  it("shows a teammate's edit of the same segment as a conflict per segment, and settles it with merged text and the other offline edits", async () => {
    const here = start();
    const [a, b] = here.store.documents.get(id)!.segments;
    url = offlineUrl;
    await here.edits.edit(id, [{ id: a!.id, text: 'alice wrote the budget meeting' }]);
    await here.edits.edit(id, [{ id: b!.id, text: 'alice also fixed this one' }]);
    await teammateEdits(a!.id, 'bob wrote the budget review');
    const notified = notes.notifications.length;

    url = server.url;
    expect(await here.edits.flush()).toMatchObject({ sent: 0, conflicts: 1 });
    expect(notes.notifications.slice(notified)).toEqual([
      expect.objectContaining({ kind: 'corrections-not-sent', transcriptionId: id }),
    ]);
    const detail = here.edits.detail(id);
    expect(detail.unsyncedEdits).toBe(true);
    expect(detail.conflict).toMatchObject({ code: 'conflict', reason: 'app.edits-conflict' });
    // Only the segment both changed; mine as corrected here, theirs as on the server now, and who did it.
    expect(detail.conflictSegments).toEqual([
      {
        segmentId: a!.id,
        start: a!.start,
        end: a!.end,
        mine: { text: 'alice wrote the budget meeting', speaker: a!.speaker },
        theirs: { text: 'bob wrote the budget review', speaker: a!.speaker },
        theirAuthors: ['bob name'],
      },
    ]);
    // Nothing is lost or sent over theirs meanwhile.
    expect(detail.document!.segments.map((s) => s.text)).toEqual([
      'alice wrote the budget meeting',
      'alice also fixed this one',
    ]);
    expect((await latest()).document.segments[0]!.text).toBe('bob wrote the budget review');

    // A new run of the app still has it all.
    const again = start();
    expect(again.edits.detail(id).conflictSegments).toEqual(detail.conflictSegments);

    const settled = await again.call('transcripts:settle-conflict', {
      id,
      segments: [{ segmentId: a!.id, text: 'alice and bob wrote the budget review meeting', speaker: a!.speaker }],
    });
    if (!settled.ok) throw new Error(JSON.stringify(settled.error));
    expect(settled.value).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(settled.value.conflictSegments).toBeUndefined();
    const onServer = await latest();
    expect(onServer.document.segments.map((s) => s.text)).toEqual([
      'alice and bob wrote the budget review meeting',
      'alice also fixed this one',
    ]);
    expect(settled.value.document!.segments.map((s) => s.text)).toEqual(onServer.document.segments.map((s) => s.text));
    expect(again.store.outbox.all()).toHaveLength(0);
  });

  it('refuses to settle what is not in conflict, another team’s transcript, and malformed requests', async () => {
    const here = start();
    const [a] = here.store.documents.get(id)!.segments;
    const before = await latest();
    const choice = { segmentId: a!.id, text: 'forced', speaker: null };
    expect(await here.call('transcripts:settle-conflict', { id, segments: [choice] })).toMatchObject({
      ok: false,
      error: { code: 'conflict' },
    });
    expect(await here.call('transcripts:settle-conflict', { id: foreignId, segments: [choice] })).toMatchObject({
      ok: false,
    });
    expect(await here.call('transcripts:settle-conflict', { id, segments: [] })).toMatchObject({
      ok: false,
      error: { code: 'validation', field: 'segments' },
    });
    expect(
      await here.call('transcripts:settle-conflict', { id, segments: [{ ...choice, keep: 'local' }] }),
    ).toMatchObject({ ok: false, error: { code: 'validation', field: 'segments.0.keep' } });
    // The server was never written to.
    expect((await latest()).latest_revision).toBe(before.latest_revision);

    // A conflict over one segment settles that one only: another id is refused, naming the field.
    url = offlineUrl;
    await here.edits.edit(id, [{ id: a!.id, text: 'alice again offline' }]);
    await teammateEdits(a!.id, 'bob again');
    url = server.url;
    await here.edits.flush();
    const other = here.store.documents.get(id)!.segments[1]!;
    expect(
      await here.call('transcripts:settle-conflict', { id, segments: [{ ...choice, segmentId: other.id }] }),
    ).toMatchObject({ ok: false, error: { code: 'conflict', field: 'segments.0.segmentId' } });

    // The teammate changes it once more before the choice lands: refused, and shown anew with their change.
    const seen = (await latest()).latest_revision;
    await teammateEdits(a!.id, 'bob a third time');
    const late = await here.call('transcripts:settle-conflict', { id, segments: [{ ...choice, text: 'mine wins' }] });
    expect(late).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await latest()).latest_revision).toBe(seen + 1);
    expect(here.edits.detail(id).conflictSegments).toEqual([
      expect.objectContaining({
        segmentId: a!.id,
        mine: expect.objectContaining({ text: 'alice again offline' }),
        theirs: expect.objectContaining({ text: 'bob a third time' }),
        theirAuthors: ['bob name'],
      }),
    ]);
    expect(await here.call('transcripts:resolve-conflict', { id, keep: 'server' })).toMatchObject({ ok: true });
    expect(here.edits.detail(id).document!.segments[0]!.text).toBe('bob a third time');
  });

  it('bounds what waits per transcript, and settles a conflict that is not about segments whole', async () => {
    const here = start();
    const [a] = here.store.documents.get(id)!.segments;
    url = offlineUrl;
    const many = Array.from({ length: 501 }, (_, i) => ({
      kind: 'text' as const,
      segmentId: a!.id,
      text: `draft ${i}`,
    }));
    await expect(here.edits.apply(id, many)).rejects.toMatchObject({ error: { code: 'too-large' } });
    expect(here.store.outbox.all()).toHaveLength(0);

    // Deleted on the server while an edit waited: a conflict, but not over segments.
    const doomed = await completedTranscription(server, alice, await shortSpeech());
    url = server.url;
    const segment = (await here.transcripts.detail(doomed)).document!.segments[0]!;
    url = offlineUrl;
    await here.edits.edit(doomed, [{ id: segment.id, text: 'edited before it was deleted' }]);
    expect(
      (await server.api(await server.key('team', 'admin', ['DELETE']), 'DELETE', `/api/v1/transcriptions/${doomed}`))
        .status,
    ).toBeLessThan(300);
    url = server.url;
    expect(await here.edits.flush()).toMatchObject({ sent: 0, conflicts: 1 });
    const detail = here.edits.detail(doomed);
    expect(detail.conflict).toMatchObject({ code: 'not-found', reason: 'app.edits-deleted' });
    expect(detail.conflictSegments).toBeUndefined();
    expect(detail.document!.segments[0]!.text).toBe('edited before it was deleted');
    expect(
      await here.call('transcripts:settle-conflict', {
        id: doomed,
        segments: [{ segmentId: segment.id, text: 'x', speaker: null }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const dropped = await here.edits.resolveConflict(doomed, 'server');
    expect(dropped).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(dropped.document!.segments[0]!.text).toBe(segment.text);
  });

  it('online on a revision a teammate has moved past: rebased over another segment, a conflict over the same one', async () => {
    const here = start();
    const [a, b] = here.store.documents.get(id)!.segments;
    await teammateEdits(b!.id, 'bob online, second part');
    const rebased = await here.edits.edit(id, [{ id: a!.id, text: 'alice online, first part' }]);
    expect(rebased).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(rebased.document!.segments.map((s) => s.text)).toEqual([
      'alice online, first part',
      'bob online, second part',
    ]);

    await teammateEdits(a!.id, 'bob online, first part');
    const clash = await here.edits.edit(id, [{ id: a!.id, text: 'alice online, first part again' }]);
    expect(clash.unsyncedEdits).toBe(true);
    expect(clash.conflictSegments).toEqual([
      expect.objectContaining({
        segmentId: a!.id,
        mine: expect.objectContaining({ text: 'alice online, first part again' }),
        theirs: expect.objectContaining({ text: 'bob online, first part' }),
        theirAuthors: ['bob name'],
      }),
    ]);
    expect((await latest()).document.segments[0]!.text).toBe('bob online, first part');
    const kept = await here.call('transcripts:resolve-conflict', { id, keep: 'local' });
    if (!kept.ok) throw new Error(JSON.stringify(kept.error));
    expect((await latest()).document.segments.map((s) => s.text)).toEqual([
      'alice online, first part again',
      'bob online, second part',
    ]);
    expect(kept.value).toMatchObject({ unsyncedEdits: false, conflict: null });
  });

  it('keeps edits queued offline across a restart: still shown, then sent', async () => {
    url = offlineUrl;
    const first = start();
    const [a] = first.store.documents.get(id)!.segments;
    await first.edits.edit(id, [{ id: a!.id, text: 'queued before the restart' }]);

    const next = start();
    const shown = await next.transcripts.detail(id);
    expect(shown.unsyncedEdits).toBe(true);
    expect(shown.document!.segments[0]!.text).toBe('queued before the restart');
    expect(next.store.search.search('restart')[0]).toMatchObject({ transcriptionId: id });

    url = server.url;
    expect(await next.edits.flush()).toEqual({ sent: 1, conflicts: 0, interrupted: false });
    expect((await latest()).document.segments[0]!.text).toBe('queued before the restart');
    expect(next.edits.detail(id).unsyncedEdits).toBe(false);
  });

  it('undoes and redoes after a restart, on the server and while edits wait', async () => {
    const first = start();
    const [a] = first.store.documents.get(id)!.segments;
    const before = a!.text;
    await first.edits.edit(id, [{ id: a!.id, text: 'an edit to undo tomorrow' }]);
    expect((await latest()).document.segments[0]!.text).toBe('an edit to undo tomorrow');

    const tomorrow = start();
    expect(tomorrow.edits.detail(id).history!.undo).toBeGreaterThan(0);
    const undone = await tomorrow.edits.undo(id);
    expect(undone.document!.segments[0]!.text).toBe(before);
    expect((await latest()).document.segments[0]!.text).toBe(before);
    expect((await latest()).revisions.at(-1)!.source).toBe('restore');

    const later = start();
    expect(later.edits.detail(id).history!.redo).toBe(1);
    const redone = await later.edits.redo(id);
    expect(redone.document!.segments[0]!.text).toBe('an edit to undo tomorrow');
    expect((await latest()).document.segments[0]!.text).toBe('an edit to undo tomorrow');

    // Offline, edits still waiting are taken back from the queue, across a restart too.
    url = offlineUrl;
    for (const text of ['a thought', 'a thought better', 'a thought better of offline'])
      await later.edits.edit(id, [{ id: a!.id, text }]);
    // Kept compact: the queued states share one list of operations.
    expect(later.store.edits.history(id)).toMatchObject({ lists: [expect.objectContaining({ length: 3 })] });
    const offline = start();
    expect((await offline.edits.undo(id)).document!.segments[0]!.text).toBe('a thought better');
    expect((await offline.edits.redo(id)).document!.segments[0]!.text).toBe('a thought better of offline');
    for (let i = 0; i < 2; i++) await offline.edits.undo(id);
    const back = await offline.edits.undo(id);
    expect(back.document!.segments[0]!.text).toBe('an edit to undo tomorrow');
    expect(back.unsyncedEdits).toBe(false);
    expect(offline.store.outbox.all()).toHaveLength(0);
    // Further back needs the server: refused offline, and nothing moves.
    await expect(offline.edits.undo(id)).rejects.toMatchObject({ error: { code: 'offline' } });
    expect(offline.edits.detail(id).history).toEqual(back.history);
    url = server.url;
  });
});
