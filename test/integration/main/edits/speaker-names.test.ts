// Speaker names as part of the document (decision 0055), over real HTTP and real SQLite caches: a rename is a
// revision another computer reads, undo takes it back, names kept on a computer from before go to the server
// once, and a server without revisions keeps them on the computer.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { startSpecOnlyProxy } from '../../../support/spec-only-proxy.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../../support/test-server.js';
import { editingServices, notificationRecorder, shortSpeech } from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('speaker names in the document', () => {
  let server: TestServer;
  let alice: string;
  let bob: string;
  let id: string;
  let label: string;
  const dir = tempDir('kikitori-speaker-names-');
  const notes = notificationRecorder<NotificationEvent>();
  const stores: CacheStore[] = [];
  let computers = 0;

  /** One computer: a cache file of its own, and the services over it, talking to `baseUrl` with `key`. */
  function computer(key: string, file = path.join(dir, `cache-${++computers}.sqlite`), baseUrl = () => server.url) {
    const store = openCacheStore(file);
    stores.push(store);
    const services = editingServices({
      connection: () => ({ baseUrl: baseUrl(), apiKey: key }),
      store,
      audioDir: path.join(dir, `audio-${computers}`),
      notify: (n) => notes.notifier.notify(n),
    });
    return { store, file, ...services };
  }

  const revisions = async () =>
    (await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions`)).json as {
      latest_revision: number;
      revisions: Array<{ source: string; author: { name: string } }>;
    };
  const latestDocument = async (): Promise<TranscriptDocument> => {
    const { latest_revision: latest } = await revisions();
    return (await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions/${latest}`)).json.document;
  };
  /** Names a speaker on the server directly, as a teammate's app would. */
  const nameOnServer = async (name: string | null) => {
    const { latest_revision: latest } = await revisions();
    const answer = await server.api(bob, 'POST', `/api/v1/transcriptions/${id}/revisions`, {
      base_revision: latest,
      operations: [{ kind: 'speaker-name', speaker: label, name }],
    });
    expect(answer.status).toBe(200);
  };

  beforeAll(async () => {
    server = await startTestServer();
    alice = await server.key('team', 'alice');
    bob = await server.key('team', 'bob');
    // Two speakers asked for, so that segments carry speaker labels to name.
    const ticket = await uploadFile(server, alice, await shortSpeech(), { language: 'en', num_speakers: 2 });
    await server.api(alice, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    const done = await waitForStatus(server, alice, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
    id = ticket.transcription_id;
    label = (await latestDocument()).segments.find((s) => s.speaker)!.speaker!;
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renames through a revision another computer reads, undoably, and keeps nothing on this computer', async () => {
    const here = computer(alice);
    await here.transcripts.detail(id);
    const before = (await revisions()).revisions.length;

    const renamed = await here.edits.apply(id, [{ kind: 'speaker-name', speaker: label, name: '  Aiko   Tanaka ' }]);
    expect(renamed.speakerNames).toEqual({ [label]: 'Aiko Tanaka' });
    expect(renamed.history).toEqual({ undo: 1, redo: 0 });
    expect(renamed.unsyncedEdits).toBe(false);
    // On the server: a revision by alice, whose document names the speaker; nothing kept in the local table.
    const list = await revisions();
    expect(list.revisions).toHaveLength(before + 1);
    expect(list.revisions.at(-1)).toMatchObject({ source: 'edit', author: { name: 'alice name' } });
    expect((await latestDocument()).speaker_names).toEqual({ [label]: 'Aiko Tanaka' });
    expect(here.store.edits.speakerNames(id)).toEqual({});
    expect(here.store.documents.get(id)!.speaker_names).toEqual({ [label]: 'Aiko Tanaka' });

    // Another computer of the team (bob, his own cache) shows the name once it reads the transcript.
    const there = computer(bob);
    expect((await there.transcripts.detail(id)).speakerNames).toEqual({ [label]: 'Aiko Tanaka' });
    // What its exports and subtitles name speakers by (the export handler reads this).
    expect((await there.transcripts.shownDocument(id)).speakerNames).toEqual({ [label]: 'Aiko Tanaka' });

    const undone = await here.edits.undo(id);
    expect(undone.speakerNames).toEqual({});
    expect(undone.history).toEqual({ undo: 0, redo: 1 });
    expect((await revisions()).revisions.at(-1)!.source).toBe('restore');
    expect((await latestDocument()).speaker_names ?? {}).toEqual({});
    // The other computer, reading the latest revision again, no longer shows it.
    await there.transcripts.adoptLatestRevision(id);
    expect(there.transcripts.detailFromCache(id).speakerNames).toEqual({});

    const redone = await here.edits.redo(id);
    expect(redone.speakerNames).toEqual({ [label]: 'Aiko Tanaka' });
    expect((await latestDocument()).speaker_names).toEqual({ [label]: 'Aiko Tanaka' });

    // Null removes the name.
    const cleared = await here.edits.apply(id, [{ kind: 'speaker-name', speaker: label, name: null }]);
    expect(cleared.speakerNames).toEqual({});
    expect((await latestDocument()).speaker_names).toEqual({});
  });

  it('refuses an unknown speaker and a name over the limit with the field, sending nothing', async () => {
    const here = computer(alice);
    await here.transcripts.detail(id);
    const before = (await revisions()).revisions.length;
    await expect(
      here.edits.apply(id, [{ kind: 'speaker-name', speaker: 'SPEAKER_99', name: 'Nobody' }]),
    ).rejects.toMatchObject({
      error: {
        code: 'validation',
        field: 'speaker',
        reason: 'app.edit-refused',
        detail: 'There is no speaker "SPEAKER_99" in this transcript.',
      },
    });
    await expect(
      here.edits.apply(id, [{ kind: 'speaker-name', speaker: label, name: 'x'.repeat(LIMITS.speakerName + 1) }]),
    ).rejects.toMatchObject({ error: { code: 'validation', field: 'name', detail: expect.stringContaining('100') } });
    expect((await revisions()).revisions).toHaveLength(before);
    expect(here.store.edits.speakerNames(id)).toEqual({});
  });

  /**
   * A cache file with the transcript in it, then names written into its table as an older app kept them;
   * `legacy`: its document cached before revisions, without `revision`.
   */
  async function cacheWithLocalNames(names: Record<string, string>, legacy = false): Promise<string> {
    const first = computer(alice);
    await first.transcripts.detail(id);
    if (legacy) {
      const { revision: _revision, speaker_names: _names, ...document } = first.store.documents.get(id)!;
      first.store.documents.put(id, document);
    }
    first.store.close();
    stores.splice(stores.indexOf(first.store), 1);
    const db = new BetterSqlite3(first.file);
    const insert = db.prepare('INSERT INTO speaker_names (transcription_id, speaker, name) VALUES (?, ?, ?)');
    for (const [speaker, name] of Object.entries(names)) insert.run(id, speaker, name);
    db.close();
    return first.file;
  }

  it('sends names kept on this computer to the server once, then forgets them here; the server’s name wins', async () => {
    await nameOnServer(null);
    // An older app cached the document and named the speaker here; a label the transcript does not have
    // stays here untouched.
    const file = await cacheWithLocalNames({ [label]: 'Local Aiko', SPEAKER_77: 'Gone' }, true);
    const before = (await revisions()).revisions.length;
    const here = computer(alice, file);
    expect(here.store.edits.speakerNames(id)).toEqual({ [label]: 'Local Aiko', SPEAKER_77: 'Gone' });
    expect(here.store.documents.get(id)!.revision).toBeUndefined();

    const detail = await here.transcripts.detail(id);
    expect(detail.speakerNames[label]).toBe('Local Aiko');
    const list = await revisions();
    expect(list.revisions).toHaveLength(before + 1);
    expect(list.revisions.at(-1)).toMatchObject({ source: 'edit', author: { name: 'alice name' } });
    expect((await latestDocument()).speaker_names).toEqual({ [label]: 'Local Aiko' });
    expect(here.store.edits.speakerNames(id)).toEqual({ SPEAKER_77: 'Gone' });
    expect(here.store.documents.get(id)!.revision).toBe(list.latest_revision);
    // Once: reading again sends nothing.
    await here.transcripts.detail(id);
    expect((await revisions()).revisions).toHaveLength(before + 1);
    // A teammate sees it.
    expect((await computer(bob).transcripts.detail(id)).speakerNames).toEqual({ [label]: 'Local Aiko' });

    // The team renamed the speaker on the server; a computer still holding an older local name yields to it.
    await nameOnServer('Team Aiko');
    const stale = computer(alice, await cacheWithLocalNames({ [label]: 'Stale Aiko' }));
    const count = (await revisions()).revisions.length;
    expect((await stale.transcripts.detail(id)).speakerNames).toEqual({ [label]: 'Team Aiko' });
    expect(stale.store.edits.speakerNames(id)).toEqual({});
    expect((await revisions()).revisions).toHaveLength(count);
    expect((await latestDocument()).speaker_names).toEqual({ [label]: 'Team Aiko' });
  });

  it('keeps names on this computer for a server without revisions (another implementation of the API)', async () => {
    const proxy = await startSpecOnlyProxy(server.url);
    try {
      const file = path.join(dir, 'spec-only.sqlite');
      const here = computer(alice, file, () => proxy.url);
      const shown = await here.transcripts.detail(id);
      expect(shown.document!.revision).toBeUndefined();
      const count = (await revisions()).revisions.length;
      const served = (await latestDocument()).speaker_names;

      const renamed = await here.edits.apply(id, [{ kind: 'speaker-name', speaker: label, name: 'Only Here' }]);
      expect(renamed.speakerNames).toEqual({ [label]: 'Only Here' });
      expect(here.store.edits.speakerNames(id)).toEqual({ [label]: 'Only Here' });
      // Still here when read again; the server was not written to.
      expect((await here.transcripts.detail(id)).speakerNames).toEqual({ [label]: 'Only Here' });
      expect((await revisions()).revisions).toHaveLength(count);
      expect((await latestDocument()).speaker_names).toEqual(served);
      // Removing it is local too.
      expect((await here.edits.apply(id, [{ kind: 'speaker-name', speaker: label, name: '' }])).speakerNames).toEqual(
        {},
      );
      expect(here.store.edits.speakerNames(id)).toEqual({});
    } finally {
      await proxy.close();
    }
  });
});
