import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { EditService } from '../../../../src-main/edits/edit-service.js';
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

describe('transcript corrections and the outbox', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let offlineUrl: string;
  let url: string;
  let store: CacheStore;
  let transcripts: TranscriptService;
  let edits: EditService;
  const notes = notificationRecorder<NotificationEvent>();
  const dir = tempDir('kikitori-edits-');

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice', ['DELETE']);
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
    await transcripts.detail(id); // caches the record and the document
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const serverReview = async () =>
    (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/review`)).json?.reviewed_text;
  const lines = (first: string) => {
    const doc = store.documents.get(id)!;
    return [first, ...doc.segments.slice(1).map((s) => s.text)].join('\n');
  };

  it('saves a correction as a revision at once when online, keeping word timing', async () => {
    const original = store.documents.get(id)!.segments[0]!;
    const corrected = original.text.replace('budget', 'annual budget');
    const detail = await edits.edit(id, [{ id: original.id, text: corrected }]);
    expect(detail.unsyncedEdits).toBe(false);
    expect(detail.document!.segments[0]!.text).toBe(corrected);
    const kept = original.words.find((w) => w.word === 'budget')!;
    expect(detail.document!.segments[0]!.words.find((w) => w.word === 'budget')).toEqual(kept);
    expect(detail.document!.segments[0]!.words.find((w) => w.word === 'annual')).toMatchObject({ confidence: null });
    expect(await serverReview()).toBe(lines(corrected));
    // Sent as an edit operation, not as a review text (decision 0052); the cache holds that revision.
    const list = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`);
    expect((list.json as { revisions: Array<{ source: string }> }).revisions.map((r) => r.source)).toEqual([
      'recognized',
      'edit',
    ]);
    expect(store.documents.get(id)!.revision).toBe(2);
    expect(transcripts.detailFromCache(id).document).toEqual(store.documents.get(id));
    expect(store.search.search('annual')[0]).toMatchObject({ transcriptionId: id, segmentId: original.id });
  });

  it('queues corrections made offline, keeps only the latest, and sends it in order once online', async () => {
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    const offline = await edits.edit(id, [{ id: first.id, text: 'offline draft one' }]);
    expect(offline.unsyncedEdits).toBe(true);
    expect(offline.document!.segments[0]!.text).toBe('offline draft one');
    await edits.edit(id, [{ id: first.id, text: 'offline draft two' }]);
    expect(store.outbox.all()).toHaveLength(1);
    expect(store.outbox.all()[0]).toMatchObject({ state: 'pending', lastError: { code: 'offline' } });

    url = server.url;
    expect(await edits.flush()).toEqual({ sent: 1, conflicts: 0, interrupted: false });
    expect(await serverReview()).toBe(lines('offline draft two'));
    expect(transcripts.detailFromCache(id).unsyncedEdits).toBe(false);
  });

  it('does not overwrite a correction someone else saved meanwhile, and says so', async () => {
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    await edits.edit(id, [{ id: first.id, text: 'mine while offline' }]);
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, {
      reviewed_text: lines('theirs from another computer'),
    });

    url = server.url;
    expect(await edits.flush()).toMatchObject({ sent: 0, conflicts: 1 });
    expect(await serverReview()).toBe(lines('theirs from another computer'));
    expect(store.outbox.all()[0]).toMatchObject({ state: 'conflict', lastError: { code: 'conflict' } });
    expect(notes.notifications.at(-1)).toMatchObject({ kind: 'corrections-not-sent', transcriptionId: id });
    const shown = edits.detail(id);
    expect(shown.unsyncedEdits).toBe(true);
    expect(shown.document!.segments[0]!.text).toBe('mine while offline');

    expect(shown.conflictSegments).toEqual([
      expect.objectContaining({
        segmentId: first.id,
        mine: { text: 'mine while offline', speaker: first.speaker },
        theirs: { text: 'theirs from another computer', speaker: first.speaker },
        theirAuthors: ['alice name'],
      }),
    ]);

    // Editing again joins the edits waiting in the conflict (decision 0054): nothing is sent over theirs
    // until the conflict is settled, segment by segment.
    const saved = await edits.edit(id, [{ id: first.id, text: 'mine, on purpose' }]);
    expect(saved.unsyncedEdits).toBe(true);
    expect(saved.conflictSegments![0]!.mine!.text).toBe('mine, on purpose');
    expect(await serverReview()).toBe(lines('theirs from another computer'));
    const settled = await edits.settleConflict(id, [
      { segmentId: first.id, text: 'mine, on purpose', speaker: first.speaker },
    ]);
    expect(settled).toMatchObject({ unsyncedEdits: false, conflict: null });
    expect(await serverReview()).toBe(lines('mine, on purpose'));
  });

  it('can settle a conflict in favour of the server', async () => {
    const first = store.documents.get(id)!.segments[0]!;
    url = offlineUrl;
    await edits.edit(id, [{ id: first.id, text: 'local only' }]);
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: lines('the server wins') });
    url = server.url;
    await edits.flush();
    const settled = await edits.resolveConflict(id, 'server');
    expect(settled.unsyncedEdits).toBe(false);
    expect(settled.document!.segments[0]!.text).toBe('the server wins');
  });

  it('shows corrections saved on another computer', async () => {
    await server.api(key, 'POST', `/api/v1/transcriptions/${id}/review`, { reviewed_text: lines('from the laptop') });
    expect(await transcripts.syncReview(id)).toBe(true);
    expect(transcripts.detailFromCache(id).document!.segments[0]!.text).toBe('from the laptop');
    // The cache holds the server's latest revision itself, not a copy mapped from the review text.
    const list = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`);
    expect(store.documents.get(id)!.revision).toBe((list.json as { latest_revision: number }).latest_revision);
    expect(store.documents.get(id)!.segments[0]!.text).toBe('from the laptop');
    expect(transcripts.detailFromCache(id).document).toEqual(store.documents.get(id));
  });
});
