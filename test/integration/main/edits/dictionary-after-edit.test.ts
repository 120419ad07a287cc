// Issue 24's headline bug: "Apply dictionary…" after an edit showed nothing, because the edited copy on
// this computer hid the server's rewritten document. Edits now go to the server as revision operations
// and what is shown is the latest revision, so the dictionary's replacement and the edit meet.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { startTestServer, tempDir, type TestServer } from '../../../support/test-server.js';
import { completedTranscription, notificationRecorder, shortSpeech, editingServices } from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('a dictionary applied after an edit', () => {
  let server: TestServer;
  let key: string;
  let id: string;
  let store: CacheStore;
  const dir = tempDir('kikitori-dictionary-after-edit-');
  const notes = notificationRecorder<NotificationEvent>();

  beforeAll(async () => {
    server = await startTestServer();
    key = await server.key('team', 'alice');
    id = await completedTranscription(server, key, await shortSpeech());
    store = openCacheStore(':memory:');
  });
  afterAll(async () => {
    store?.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the edit and the replacement, the replaced word marked, as the latest revision', async () => {
    const { transcripts, edits } = editingServices({
      connection: () => ({ baseUrl: server.url, apiKey: key }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    });
    const recognized = (await transcripts.detail(id)).document!;
    expect(recognized.revision).toBe(1);
    const words = recognized.segments.flatMap((s) => s.words.map((w, i) => ({ segment: s.id, index: i, word: w })));
    const meeting = words.find((w) => /meeting/i.test(w.word.word))!;
    expect(words.some((w) => /budget/i.test(w.word.word))).toBe(true);

    const edited = await edits.apply(id, [
      { kind: 'word', segmentId: meeting.segment, wordIndex: meeting.index, text: 'offsite' },
    ]);
    expect(edited.document!.text).toContain('offsite');
    // Sent as operations: the server's latest revision is the edit, and nothing waits to be sent.
    expect(edited.document!.revision).toBe(2);
    expect(edited.unsyncedEdits).toBe(false);
    const list = (await server.api(key, 'GET', `/api/v1/transcriptions/${id}/revisions`)).json as {
      revisions: Array<{ revision: number; source: string }>;
    };
    expect(list.revisions.map((r) => [r.revision, r.source])).toEqual([
      [1, 'recognized'],
      [2, 'edit'],
    ]);

    const dictionary = (await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Later rules' })).json
      .dictionary_id as string;
    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    await transcripts.applyDictionary(id, dictionary);

    const detail = await transcripts.detail(id);
    const document = detail.document!;
    expect(document.revision).toBe(3);
    expect(document.text).toContain('offsite');
    expect(document.text).toContain('Q3 budget');
    const shownWords = document.segments.flatMap((s) => s.words);
    expect(shownWords.find((w) => w.word === 'offsite')).toBeDefined();
    expect(shownWords.find((w) => w.word === 'Q3 budget')?.replaced).toEqual({
      pattern: 'budget',
      original: expect.stringMatching(/^budget$/i),
    });
    // Search finds what is shown.
    expect(store.search.search('offsite')[0]).toMatchObject({ transcriptionId: id });
  });

  it('undoes "Apply dictionary" as one step, by a new revision like any undo, and redoes it', async () => {
    const { transcripts, edits } = editingServices({
      connection: () => ({ baseUrl: server.url, apiKey: key }),
      store,
      audioDir: path.join(dir, 'audio'),
      notify: (n) => notes.notifier.notify(n),
    });
    const own = await completedTranscription(server, key, await shortSpeech());
    const recognized = (await transcripts.detail(own)).document!;
    const words = recognized.segments.flatMap((s) => s.words.map((w, i) => ({ segment: s.id, index: i, word: w })));
    const meeting = words.find((w) => /meeting/i.test(w.word.word))!;
    const edited = await edits.apply(own, [
      { kind: 'word', segmentId: meeting.segment, wordIndex: meeting.index, text: 'offsite' },
    ]);
    expect(edited.document!.revision).toBe(2);
    const dictionary = (await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Undoable rules' })).json
      .dictionary_id as string;
    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });

    const applied = await edits.applyDictionary(own, dictionary);
    expect(applied.document!.revision).toBe(3);
    expect(applied.document!.text).toContain('Q3 budget');
    expect(applied.history).toEqual({ undo: 2, redo: 0 });

    // Undo takes back the dictionary alone: the edit stays; the server keeps every step as a revision.
    const undone = await edits.undo(own);
    expect(undone.document!.revision).toBe(4);
    expect(undone.document!.text).not.toContain('Q3 budget');
    expect(undone.document!.text).toContain('offsite');
    expect(undone.history).toEqual({ undo: 1, redo: 1 });
    const redone = await edits.redo(own);
    expect(redone.document!.revision).toBe(5);
    expect(redone.document!.text).toContain('Q3 budget');
    expect(redone.document!.text).toContain('offsite');
    const list = (await server.api(key, 'GET', `/api/v1/transcriptions/${own}/revisions`)).json as {
      revisions: Array<{ revision: number; source: string }>;
    };
    expect(list.revisions.map((r) => r.source)).toEqual(['recognized', 'edit', 'dictionary', 'restore', 'restore']);
  });
});
