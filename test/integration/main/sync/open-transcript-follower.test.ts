// Two profiles on one team server (decision 0056): the second follows the transcript it has open, the first
// edits it, and the second's cache and a 'transcripts:changed' show the edit once the follower's own
// schedule has checked. Held back while the user types in an editor or an edit made here waits to be sent.
// Real server over HTTP, real speech, two caches; transcripts:follow refuses hostile input.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcChannel, IpcRequest } from '../../../../src-shared/ipc-contract.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { invokeHandler, type HandlerMap } from '../../../../src-main/ipc/handler-registry.js';
import type { HandlerContext } from '../../../../src-main/ipc/handlers/handler-context.js';
import { transcriptHandlers } from '../../../../src-main/ipc/handlers/transcripts.js';
import type { ProfileSession } from '../../../../src-main/profile-session.js';
import { OpenTranscriptFollower } from '../../../../src-main/sync/open-transcript-follower.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import {
  completedTranscription,
  editingServices,
  eventRecorder,
  notificationRecorder,
  shortSpeech,
} from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('the transcript open in the window follows the server', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  let id: string;
  let foreignId: string;
  const dir = tempDir('kikitori-follow-');
  const notes = notificationRecorder<NotificationEvent>();
  const stores: CacheStore[] = [];
  const followers: OpenTranscriptFollower[] = [];

  /** One profile of a person on the team server: its own cache, services, follower and events. */
  function profile(key: string, intervals = { followMs: 20, followMaxMs: 80 }) {
    const store = openCacheStore(':memory:');
    stores.push(store);
    const services = editingServices({
      connection: () => ({ baseUrl: server.url, apiKey: key }),
      store,
      audioDir: path.join(dir, `audio-${stores.length}`),
      notify: (n) => notes.notifier.notify(n),
    });
    const events = eventRecorder();
    let online = true;
    const follower = new OpenTranscriptFollower({
      transcripts: services.transcripts,
      emit: events.emit,
      isOnline: () => online,
      // The follower's own schedule, quick: the tests wait for what it does, never for a time.
      intervals,
    });
    followers.push(follower);
    const shownText = (segment = 0) => services.transcripts.detailFromCache(id).document!.segments[segment]!.text;
    return { store, ...services, events, follower, shownText, setOnline: (value: boolean) => void (online = value) };
  }

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.key('team', 'alice');
    bob = await server.key('team', 'bob');
    const speech = await shortSpeech();
    id = await completedTranscription(server, alice, speech);
    foreignId = await completedTranscription(server, await server.key('other-team', 'mallory'), speech);
  });
  afterAll(async () => {
    for (const follower of followers) await follower.stop();
    for (const store of stores) store.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("shows a teammate's edit in the open transcript, with a 'transcripts:changed', without a read", async () => {
    const first = profile(alice);
    const second = profile(bob);
    await first.transcripts.detail(id);
    await second.transcripts.detail(id);
    const segment = second.store.documents.get(id)!.segments[0]!;
    const before = second.store.documents.get(id)!.revision!;

    second.follower.follow({ id, editing: false });
    const changed = second.events.upcoming('transcripts:changed', ({ ids }) => ids.includes(id));
    await first.edits.apply(id, [{ kind: 'text', segmentId: segment.id, text: 'alice corrected this' }]);
    await changed;

    expect(second.store.documents.get(id)!.revision).toBeGreaterThan(before);
    expect(second.shownText()).toBe('alice corrected this');
    // What an edit queued later is checked against is the text now shown, so it is not a false conflict.
    expect(second.store.edits.serverReview(id)?.split('\n')[0]).toBe('alice corrected this');
    // Searching finds what is shown.
    expect(second.store.search.matchingTranscriptionIds('corrected')).toContain(id);
    // And an edit made there next goes as an operation on the revision shown, taken as is.
    const answer = await second.edits.apply(id, [{ kind: 'text', segmentId: segment.id, text: 'bob agrees' }]);
    expect(answer.document!.segments[0]!.text).toBe('bob agrees');
    expect(second.store.outbox.hasEntriesFor(id)).toBe(false);
    second.follower.follow(null);
  });

  it('holds a new revision back while the user types in an editor, and shows it once the editor closes', async () => {
    const first = profile(alice);
    const second = profile(bob);
    await first.transcripts.detail(id);
    await second.transcripts.detail(id);
    const segment = second.store.documents.get(id)!.segments[0]!;
    const shown = second.shownText();

    second.follower.follow({ id, editing: true });
    await first.edits.apply(id, [{ kind: 'text', segmentId: segment.id, text: 'typed while bob was editing' }]);
    expect(await second.follower.check()).toBe(false);
    expect(second.shownText()).toBe(shown);

    // An editor opened while a check's request is out: its answer is not taken either.
    second.follower.follow({ id, editing: false });
    const racing = second.follower.check();
    second.follower.follow({ id, editing: true });
    expect(await racing).toBe(false);
    expect(second.shownText()).toBe(shown);

    const changed = second.events.upcoming('transcripts:changed', ({ ids }) => ids.includes(id));
    second.follower.follow({ id, editing: false });
    await changed;
    expect(second.shownText()).toBe('typed while bob was editing');
    second.follower.follow(null);
  });

  it('leaves an edit waiting to be sent alone, and asks nothing while the server is unreachable', async () => {
    const first = profile(alice);
    const second = profile(bob);
    await first.transcripts.detail(id);
    await second.transcripts.detail(id);
    const segment = second.store.documents.get(id)!.segments[0]!;
    const revision = second.store.documents.get(id)!.revision;

    second.follower.follow({ id, editing: false });
    second.store.outbox.enqueue('review', id, { reviewedText: 'waiting here' }, { known: false, text: null });
    await first.edits.apply(id, [{ kind: 'text', segmentId: segment.id, text: 'a third correction' }]);
    expect(await second.follower.check()).toBe(false);
    expect(second.store.documents.get(id)!.revision).toBe(revision);

    second.store.outbox.removeForTarget(id);
    second.setOnline(false);
    expect(await second.follower.check()).toBe(false);
    expect(second.store.documents.get(id)!.revision).toBe(revision);

    const changed = second.events.upcoming('transcripts:changed', ({ ids }) => ids.includes(id));
    second.setOnline(true);
    second.follower.kick();
    await changed;
    expect(second.shownText()).toBe('a third correction');
    second.follower.follow(null);
  });

  it('costs one request per check while the transcript does not change: a 304 without a body', async () => {
    // Intervals longer than the test: only the checks the test makes are sent.
    const quiet = profile(bob, { followMs: 600_000, followMaxMs: 600_000 });
    await quiet.transcripts.detail(id);
    quiet.follower.follow({ id, editing: false });
    for (let check = 0; check < 2; check++) {
      const from = server.logLines.length;
      expect(await quiet.follower.check()).toBe(false);
      expect(requestsIn(server.logLines.slice(from))).toEqual([
        { method: 'GET', url: `/api/v1/transcriptions/${id}/review`, status: 304 },
      ]);
    }
    quiet.follower.follow(null);
  });

  describe('transcripts:follow', () => {
    let handlers: HandlerMap;
    let followed: Array<{ id: string; editing: boolean } | null>;
    beforeAll(async () => {
      const here = profile(bob);
      await here.transcripts.detail(id);
      followed = [];
      const session = { store: here.store, follower: { follow: (target: never) => followed.push(target) } };
      handlers = transcriptHandlers({
        session: () => session as unknown as ProfileSession,
      } as unknown as HandlerContext) as HandlerMap;
    });
    const call = <C extends IpcChannel>(channel: C, request: unknown) =>
      invokeHandler(handlers, channel, request as IpcRequest<C>);

    it('follows a transcription on this computer, and none', async () => {
      expect(await call('transcripts:follow', { id, editing: true })).toMatchObject({ ok: true });
      expect(await call('transcripts:follow', { id: null, editing: false })).toMatchObject({ ok: true });
      expect(followed).toEqual([{ id, editing: true }, null]);
    });

    it("refuses an unknown id, another team's, a malformed one and a malformed request, following nothing", async () => {
      for (const unknown of ['no-such-transcription', foreignId])
        expect(await call('transcripts:follow', { id: unknown, editing: false })).toMatchObject({
          ok: false,
          error: { code: 'not-found' },
        });
      for (const bad of ['a/b', '', '..\\x', 'x'.repeat(201), 42])
        expect(await call('transcripts:follow', { id: bad, editing: false })).toMatchObject({
          ok: false,
          error: { code: 'validation', field: 'id' },
        });
      for (const request of [{ id }, { id, editing: 'yes' }])
        expect(await call('transcripts:follow', request)).toMatchObject({
          ok: false,
          error: { code: 'validation', field: 'editing' },
        });
      for (const request of [{ id, editing: false, poll: 1 }, null, 'id'])
        expect(await call('transcripts:follow', request)).toMatchObject({ ok: false, error: { code: 'validation' } });
      expect(followed).toEqual([{ id, editing: true }, null]);
    });
  });
});

/** The requests the server's log lines record: Fastify's "incoming request" and "request completed", by reqId. */
function requestsIn(lines: string[]): Array<{ method: string; url: string; status: number }> {
  const parsed = lines.map((line) => JSON.parse(line) as Record<string, any>);
  return parsed
    .filter((line) => line.msg === 'incoming request')
    .map((incoming) => ({
      method: incoming.req.method as string,
      url: incoming.req.url as string,
      status: parsed.find((line) => line.msg === 'request completed' && line.reqId === incoming.reqId)?.res
        ?.statusCode as number,
    }));
}
