import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalysisService } from '../../../../src-main/analyses/analysis-service.js';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { mediaUrlOf } from '../../../../src-main/media-response.js';
import { SyncEngine } from '../../../../src-main/sync/sync-engine.js';
import { TranscriptService } from '../../../../src-main/transcripts/transcript-service.js';
import { makeCorruptFile } from '../../../support/audio-fixtures.js';
import { startTestServer, tempDir, uploadFile, type TestServer } from '../../../support/test-server.js';
import {
  clientOf,
  eventRecorder,
  notificationRecorder,
  shortSpeech,
  testAnalysisEngines,
  until,
} from '../main-test-support.js';
import type { NotificationEvent } from '../../../../src-main/notifications.js';

describe('sync engine', () => {
  let server: TestServer;
  let key: string;
  let store: CacheStore;
  let sync: SyncEngine;
  let transcripts: TranscriptService;
  let analyses: AnalysisService;
  const events = eventRecorder();
  const notes = notificationRecorder<NotificationEvent>();
  const dir = tempDir('kikitori-sync-');

  beforeAll(async () => {
    server = await startTestServer({ runtime: { analysisEngines: await testAnalysisEngines() } });
    key = await server.key('team', 'alice', ['DELETE']);
    store = openCacheStore(':memory:');
    let engine: SyncEngine | null = null;
    const client = clientOf(server, key, { onReachability: (r) => engine?.setReachability(r) });
    const changed = (ids: string[]) => events.emit('transcripts:changed', { ids });
    transcripts = new TranscriptService({ store, client, audioDir: path.join(dir, 'audio'), onChanged: changed });
    analyses = new AnalysisService({
      store,
      client,
      onChanged: (id, kind, language) => events.emit('analysis:changed', { id, kind, language }),
    });
    sync = engine = new SyncEngine({
      profileId: 'embedded',
      store,
      client,
      transcripts,
      analyses,
      emit: events.emit,
      notify: (n) => notes.notifier.notify(n),
      intervals: { minMs: 100, maxMs: 400, idleMs: 60_000, offlineMaxMs: 300 },
    });
    sync.start();
    await events.next('connection:changed', (s) => s.online);
  });
  afterAll(async () => {
    await sync?.stop();
    store?.close();
    await server?.close().catch(() => fs.rmSync(server.dataDir, { recursive: true, force: true })); // closed by the last test
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What the upload manager does once /transcribe is accepted. */
  async function started(file: string) {
    const ticket = await uploadFile(server, key, file);
    const response = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
    transcripts.record(response.json);
    sync.kick();
    return ticket.transcription_id;
  }

  it('polls a real transcription to COMPLETED, caches and indexes its transcript, and tells the user', async () => {
    const speech = path.join(dir, 'budget.wav');
    fs.copyFileSync(await shortSpeech(), speech);
    const corrupt = await makeCorruptFile(path.join(dir, 'broken.wav'));
    const finished = notes.next();
    const [ok, bad] = await Promise.all([started(speech), started(corrupt)]);
    expect(sync.status().pending).toBeGreaterThan(0);

    await until(() => notes.notifications.length >= 2);
    await finished;
    expect(notes.notifications).toEqual(
      expect.arrayContaining([
        { kind: 'transcription-finished', name: 'budget.wav', transcriptionId: ok },
        { kind: 'transcription-failed', name: 'broken.wav', transcriptionId: bad },
      ]),
    );
    await until(() => store.documents.has(ok));
    expect(store.documents.get(ok)!.text).toContain('budget');
    const [hit] = store.search.search('budget');
    expect(hit).toMatchObject({
      transcriptionId: ok,
      transcriptionName: 'budget.wav',
      kind: 'transcript',
      start: expect.any(Number),
    });
    expect(events.of('transcripts:changed').some((e) => e.ids.includes(ok))).toBe(true);
    await until(() => sync.status().pending === 0);
    expect(events.of('connection:changed').at(-1)).toMatchObject({
      online: true,
      pending: 0,
      activeProfileId: 'embedded',
    });
  });

  it('polls analyses in progress and indexes finished summaries', async () => {
    const [id] = store.transcriptions.list({ statuses: ['COMPLETED'] }).items.map((t) => t.id);
    const view = await analyses.request(id!, 'summary');
    expect(view.kind).toBe('summary');
    sync.kick();
    await events.next(
      'analysis:changed',
      (e) => e.id === id && store.analyses.get(id, 'summary')?.status === 'COMPLETED',
    );
    expect(store.search.search('overview')[0]).toMatchObject({ transcriptionId: id, kind: 'summary' });
  });

  it('says a summary is outdated once the transcript is edited after it', async () => {
    const [id] = store.transcriptions.list({ statuses: ['COMPLETED'] }).items.map((t) => t.id);
    expect(await analyses.get(id!, 'summary')).toMatchObject({ status: 'COMPLETED', outdated: false });
    const base = `/api/v1/transcriptions/${id}`;
    const revisions = await server.api(key, 'GET', `${base}/revisions`);
    const latest = revisions.json.latest_revision as number;
    const document = (await server.api(key, 'GET', `${base}/revisions/${latest}`)).json.document;
    const edited = await server.api(key, 'POST', `${base}/revisions`, {
      base_revision: latest,
      operations: [{ kind: 'text', segmentId: document.segments[0].id, text: 'The budget plan was approved.' }],
    });
    expect(edited.status).toBe(200);
    expect(await analyses.get(id!, 'summary')).toMatchObject({ status: 'COMPLETED', outdated: true });
    // The cached copy changed with it: offline, the marker stays.
    expect(events.of('analysis:changed').some((e) => e.id === id && e.kind === 'summary')).toBe(true);
  });

  it('forgets transcriptions deleted on the server at the next full refresh', async () => {
    const [id] = store.transcriptions.list({ statuses: ['FAILED'] }).items.map((t) => t.id);
    await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`);
    await sync.refreshNow();
    expect(store.transcriptions.get(id!)).toBeNull();
    expect(events.of('transcripts:changed').some((e) => e.ids.includes(id!))).toBe(true);
  });

  it('plays audio from a local copy, downloading it from the server first', async () => {
    const [completed] = store.transcriptions.list({ statuses: ['COMPLETED'] }).items;
    expect(transcripts.localAudio(completed!.id)).toBeFalsy();
    expect(await transcripts.audioSource(completed!.id)).toEqual({ url: mediaUrlOf(completed!.id), local: true });
    expect(fs.statSync(transcripts.localAudio(completed!.id)!).size).toBe(
      fs.statSync(path.join(dir, 'budget.wav')).size,
    );
  });

  it('goes offline when the server stops, and keeps serving the cache', async () => {
    const [cached] = store.transcriptions.list({ statuses: ['COMPLETED'] }).items;
    await server.runtime.close();
    const status = await sync.refreshNow();
    expect(status.online).toBe(false);
    expect(status.detail).toMatchObject({
      code: 'offline',
      reason: 'app.offline-at',
      params: { host: expect.stringMatching(/^127\.0\.0\.1:\d+$/) },
    });
    expect(events.of('connection:changed').at(-1)).toMatchObject({ online: false });
    expect(transcripts.list({}).items.map((t) => t.id)).toContain(cached!.id);
    const detail = await transcripts.detail(cached!.id);
    expect(detail.document?.text).toContain('budget');
  });

  it('offline, says a cached summary is outdated while the transcript has edits not sent yet', async () => {
    const [cached] = store.transcriptions.list({ statuses: ['COMPLETED'] }).items;
    const id = cached!.id;
    // Current as cached (as if run again after the edit above), then edited here while the server is away.
    const current = store.analyses.get(id, 'summary')!;
    store.analyses.put(id, 'summary', null, { ...current.result, outdated: false });
    expect(await analyses.get(id, 'summary')).toMatchObject({ status: 'COMPLETED', outdated: false });
    store.outbox.enqueue('revision-operations', id, { operations: [] }, { revision: 2 });
    expect(await analyses.get(id, 'summary')).toMatchObject({ status: 'COMPLETED', outdated: true });
  });
});
