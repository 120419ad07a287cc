// Speaker editing in the app (decision 0060), over real HTTP and a real cache file: a new speaker, a split that
// gives the second part another speaker, and merging two speakers, each sent as a revision and undone like any
// edit; offline, the same edits are queued as operations (a new speaker used and named before it is sent).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../../support/test-server.js';
import { deadUrl, editingServices, notificationRecorder, shortSpeech } from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('speaker editing', () => {
  let server: TestServer;
  let alice: string;
  let stranger: string;
  let url: string;
  let offlineUrl: string;
  const dir = tempDir('kikitori-speaker-editing-');
  const notes = notificationRecorder<NotificationEvent>();
  const stores: CacheStore[] = [];

  function computer(key = alice) {
    const store = openCacheStore(path.join(dir, `cache-${stores.length}.sqlite`));
    stores.push(store);
    const services = editingServices({
      connection: () => ({ baseUrl: url, apiKey: key }),
      store,
      audioDir: path.join(dir, `audio-${stores.length}`),
      notify: (n) => notes.notifier.notify(n),
    });
    return { store, ...services };
  }

  async function transcribed(): Promise<string> {
    // One speaker asked for: every segment is SPEAKER_1, and the editor adds the others.
    const ticket = await uploadFile(server, alice, await shortSpeech(), { language: 'en', num_speakers: 1 });
    await server.api(alice, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    const done = await waitForStatus(server, alice, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
    return ticket.transcription_id;
  }

  const latestDocument = async (id: string): Promise<TranscriptDocument> => {
    const list = await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions`);
    const latest = list.json.latest_revision as number;
    return (await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions/${latest}`)).json.document;
  };
  const speakersOf = (document: TranscriptDocument | null) => document!.segments.map((s) => s.speaker);

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.key('team', 'alice');
    stranger = await server.key('other-team', 'mallory');
    offlineUrl = await deadUrl();
    url = server.url;
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('splits to a new speaker, adds another, merges two, each a revision, and undo and redo walk them back', async () => {
    const id = await transcribed();
    const here = computer();
    const first = (await here.transcripts.detail(id)).document!.segments[0]!;
    expect(first.speaker).toBe('SPEAKER_1');
    expect(first.words.length).toBeGreaterThan(2);

    const split = await here.edits.apply(id, [
      { kind: 'split', segmentId: first.id, wordIndex: 2, speaker: 'SPEAKER_2' },
    ]);
    expect(speakersOf(split.document)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    const second = split.document!.segments[1]!;
    await here.edits.apply(id, [{ kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Ben' }]);
    const added = await here.edits.apply(id, [{ kind: 'speaker', segmentId: first.id, speaker: 'SPEAKER_3' }]);
    expect(speakersOf(added.document)).toEqual(['SPEAKER_3', 'SPEAKER_2']);
    expect(added.speakerNames).toEqual({ SPEAKER_2: 'Ben' });

    const merged = await here.edits.apply(id, [{ kind: 'merge-speakers', from: 'SPEAKER_2', into: 'SPEAKER_3' }]);
    expect(speakersOf(merged.document)).toEqual(['SPEAKER_3', 'SPEAKER_3']);
    expect(merged.speakerNames).toEqual({});
    expect(merged.history).toEqual({ undo: 4, redo: 0 });
    expect(merged.unsyncedEdits).toBe(false);
    expect(speakersOf(await latestDocument(id))).toEqual(['SPEAKER_3', 'SPEAKER_3']);

    const unmerged = await here.edits.undo(id);
    expect(speakersOf(unmerged.document)).toEqual(['SPEAKER_3', 'SPEAKER_2']);
    expect(unmerged.speakerNames).toEqual({ SPEAKER_2: 'Ben' });
    expect((await latestDocument(id)).speaker_names).toEqual({ SPEAKER_2: 'Ben' });
    expect(speakersOf(await here.edits.undo(id).then((d) => d.document))).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    await here.edits.undo(id);
    const unsplit = await here.edits.undo(id);
    expect(speakersOf(unsplit.document)).toEqual(['SPEAKER_1']);
    expect(unsplit.document!.segments[0]!.text).toBe(first.text);
    expect(speakersOf(await latestDocument(id))).toEqual(['SPEAKER_1']);
    const redone = await here.edits.redo(id);
    expect(speakersOf(redone.document)).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    expect(redone.document!.segments[1]!.text).toBe(second.text);

    await expect(
      here.edits.apply(id, [{ kind: 'speaker', segmentId: first.id, speaker: 'SPEAKER_9' }]),
    ).rejects.toMatchObject({ error: { code: 'validation', field: 'speaker' } });
    await expect(
      here.edits.apply(id, [{ kind: 'merge-speakers', from: 'SPEAKER_2', into: 'SPEAKER_2' }]),
    ).rejects.toMatchObject({ error: { code: 'validation', field: 'into' } });
  });

  it('queues a new speaker, its name and a merge offline, shows them, and sends them when the server answers', async () => {
    const id = await transcribed();
    const here = computer();
    const first = (await here.transcripts.detail(id)).document!.segments[0]!;
    url = offlineUrl;
    await here.edits.apply(id, [{ kind: 'split', segmentId: first.id, wordIndex: 2, speaker: 'SPEAKER_2' }]);
    await here.edits.apply(id, [{ kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Chie' }]);
    const offline = await here.edits.apply(id, [{ kind: 'speaker', segmentId: first.id, speaker: 'SPEAKER_3' }]);
    expect(offline.unsyncedEdits).toBe(true);
    expect(speakersOf(offline.document)).toEqual(['SPEAKER_3', 'SPEAKER_2']);
    expect(offline.speakerNames).toEqual({ SPEAKER_2: 'Chie' });
    const merged = await here.edits.apply(id, [{ kind: 'merge-speakers', from: 'SPEAKER_3', into: 'SPEAKER_2' }]);
    expect(speakersOf(merged.document)).toEqual(['SPEAKER_2', 'SPEAKER_2']);
    expect(speakersOf(await latestDocument(id))).toEqual(['SPEAKER_1']);

    url = server.url;
    expect(await here.edits.flush()).toEqual({ sent: 1, conflicts: 0, interrupted: false });
    const sent = await latestDocument(id);
    expect(speakersOf(sent)).toEqual(['SPEAKER_2', 'SPEAKER_2']);
    expect(sent.speaker_names).toEqual({ SPEAKER_2: 'Chie' });
    expect(here.edits.detail(id)).toMatchObject({ unsyncedEdits: false, conflict: null });
  });

  it("does not reach another team's transcript", async () => {
    const id = await transcribed();
    const there = computer(stranger);
    await expect(there.transcripts.detail(id)).rejects.toMatchObject({ error: { code: 'not-found' } });
    // Never read here, so there is nothing to edit: refused before anything is sent.
    await expect(
      there.edits.apply(id, [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_2' }]),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(speakersOf(await latestDocument(id))).toEqual(['SPEAKER_1']);
  });
});
