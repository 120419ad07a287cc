// Structural edits (split, merge, word, replace) through EditService against the real server: sent as
// revision operations, undoable (a restore of the revision before), and read back by another computer.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { STRUCTURE_MARK } from '../../../../src-shared/transcript-editing.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import { completedTranscription, notificationRecorder, shortSpeech, editingServices } from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('edited documents', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  const dir = tempDir('kikitori-document-edits-');
  const notes = notificationRecorder<NotificationEvent>();
  const stores: CacheStore[] = [];

  function machine() {
    const store = openCacheStore(':memory:');
    stores.push(store);
    const { transcripts, edits } = editingServices({
      connection: () => ({ baseUrl: server.url, apiKey: key }),
      store,
      audioDir: path.join(dir, `audio-${stores.length}`),
      notify: (n) => notes.notifier.notify(n),
    });
    return { store, transcripts, edits };
  }

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice');
    id = await completedTranscription(server, key, await shortSpeech());
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const latestServerSegments = async () => {
    const list = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`);
    const latest = (list.json as { latest_revision: number }).latest_revision;
    const revision = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions/${latest}`);
    return (revision.json as { document: { segments: Array<{ start: number; end: number; text: string }> } }).document
      .segments;
  };
  const sources = async () =>
    (
      (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`)).json as {
        revisions: Array<{ source: string }>;
      }
    ).revisions.map((r) => r.source);
  const serverReview = async () =>
    (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/review`)).json?.reviewed_text as string | undefined;

  it('splits, edits a word and merges; undoes and redoes them; the latest revision on the server keeps the structure', async () => {
    const here = machine();
    await here.transcripts.detail(id);
    const original = here.store.documents.get(id)!;
    const first = original.segments[0]!;
    expect(first.words.length).toBeGreaterThan(2);

    const split = await here.edits.apply(id, [{ kind: 'split', segmentId: first.id, wordIndex: 2 }]);
    const segments = split.document!.segments;
    expect(segments).toHaveLength(original.segments.length + 1);
    expect(segments[0]!.words).toEqual(first.words.slice(0, 2));
    expect(segments[1]!.words).toEqual(first.words.slice(2));
    expect(split.history).toEqual({ undo: 1, redo: 0 });
    // The server keeps the split in its latest revision (decision 0052); the review is that revision's lines.
    const review = (await serverReview())!;
    expect(review.includes(STRUCTURE_MARK)).toBe(false);
    expect(review.split('\n')).toEqual(segments.map((s) => s.text));
    expect((await latestServerSegments()).map((s) => [s.start, s.end, s.text])).toEqual(
      segments.map((s) => [s.start, s.end, s.text]),
    );

    const worded = await here.edits.apply(id, [
      { kind: 'word', segmentId: segments[1]!.id, wordIndex: 0, text: 'Kikitori' },
    ]);
    expect(worded.document!.segments[1]!.words[0]).toMatchObject({
      word: 'Kikitori',
      start: first.words[2]!.start,
      end: first.words[2]!.end,
    });
    expect(worded.document!.segments[1]!.words.slice(1)).toEqual(first.words.slice(3));
    expect(here.store.search.search('Kikitori')[0]).toMatchObject({ transcriptionId: id });

    // Another computer reads the same structure back from the review.
    const there = machine();
    const elsewhere = await there.transcripts.detail(id);
    expect(elsewhere.document!.segments.map((s) => [s.id, s.start, s.end, s.speaker, s.text])).toEqual(
      worded.document!.segments.map((s) => [s.id, s.start, s.end, s.speaker, s.text]),
    );

    const undone = await here.edits.undo(id);
    expect(undone.document!.segments).toEqual(segments);
    expect(undone.history).toEqual({ undo: 1, redo: 1 });
    // Edits went to the server as operations; undo restores the revision before, as a new revision.
    expect(await sources()).toEqual(['recognized', 'edit', 'edit', 'restore']);
    expect(undone.document!.revision).toBe(4);
    const redone = await here.edits.redo(id);
    expect(redone.document!.segments[1]!.text).toBe(worded.document!.segments[1]!.text);
    expect((await sources()).at(-1)).toBe('restore');

    // Merged back, the structure is the server's again: the review is plain lines.
    const merged = await here.edits.apply(id, [{ kind: 'merge', segmentId: first.id }]);
    expect(merged.document!.segments).toHaveLength(original.segments.length);
    expect(merged.document!.segments[0]!.text).toContain('Kikitori');
    expect((await serverReview())!.includes(STRUCTURE_MARK)).toBe(false);
    expect((await serverReview())!.split('\n')).toHaveLength(original.segments.length);
    expect(merged.history).toEqual({ undo: 3, redo: 0 });
  });

  it('replaces all matches, and refuses an edit that does not apply with the field it is about', async () => {
    const here = machine();
    const detail = await here.transcripts.detail(id);
    const word = detail.document!.segments[0]!.words[0]!.word;
    const replaced = await here.edits.apply(id, [
      { kind: 'replace', query: word, replacement: 'REPLACED', options: { matchCase: true, wholeWord: true } },
    ]);
    expect(replaced.document!.segments[0]!.text.startsWith('REPLACED')).toBe(true);
    await expect(here.edits.apply(id, [{ kind: 'merge', segmentId: 99_999 }])).rejects.toMatchObject({
      error: { code: 'validation', field: 'segments' },
    });
    await expect(
      here.edits.apply(id, [{ kind: 'split', segmentId: detail.document!.segments[0]!.id, wordIndex: 0 }]),
    ).rejects.toMatchObject({ error: { code: 'validation', field: 'wordIndex' } });
  });

  it('shows a review text an older version queued, sends it once at the next edit, then shows the latest revision', async () => {
    const here = machine();
    await here.transcripts.detail(id);
    const cached = here.store.documents.get(id)!;
    const first = cached.segments[0]!;
    // What cache migration 0012 leaves of corrections queued before operations (decision 0054).
    const lines = cached.segments.map((s) => (s.id === first.id ? 'kept from an older version' : s.text));
    const known = here.store.edits.serverReview(id);
    here.store.outbox.enqueue(
      'review',
      id,
      { reviewedText: lines.join('\n') },
      { known: known !== undefined, text: known ?? null },
    );
    expect(here.transcripts.detailFromCache(id).document!.segments[0]!.text).toBe('kept from an older version');
    const second = cached.segments[1] ?? null;
    const edited = await here.edits.apply(id, [
      second
        ? { kind: 'text', segmentId: second.id, text: 'and a new one' }
        : { kind: 'text', segmentId: first.id, text: 'kept from an older version, edited' },
    ]);
    expect(edited.document!.segments[0]!.text).toMatch(/^kept from an older version/);
    expect(here.store.outbox.all()).toHaveLength(0);
    // Once sent, the cache mirrors the server's latest revision, which has both corrections (decision 0052).
    expect(here.transcripts.detailFromCache(id).document).toEqual(here.store.documents.get(id));
    const latest = await latestServerSegments();
    expect(here.store.documents.get(id)!.segments.map((s) => s.text)).toEqual(latest.map((s) => s.text));
    expect(latest[0]!.text).toMatch(/^kept from an older version/);
    expect(edited.document!.revision).toBe(here.store.documents.get(id)!.revision);
  });
});
