import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IPC_CHANNELS,
  type DictionaryDetail,
  type DictionaryImport,
  type IpcChannel,
  type IpcRequest,
  type IpcResponse,
  type UploadOptions,
} from '../../../src-shared/ipc-contract.js';
import { mediaUrlOf } from '../../../src-main/media-response.js';
import { invokeHandler } from '../../../src-main/ipc/handler-registry.js';
import { createMainServices, type MainServices } from '../../../src-main/services.js';
import { LIMITS } from '../../../src-shared/limits.js';
import { createConfSettingsStore } from '../../../src-main/settings/conf-settings-store.js';
import { createAesGcmSecretBox } from '../../../src-main/settings/secret-box.js';
import { CLI } from '../../support/cli-process.js';
import { startTestServer, tempDir, type TestServer } from '../../support/test-server.js';
import { copyAs, eventRecorder, notificationRecorder, shortSpeech, until } from './main-test-support.js';

const OPTIONS: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

describe('main services', () => {
  const dir = tempDir('kikitori-services-');
  const events = eventRecorder();
  const notes = notificationRecorder();
  const saved: string[] = [];
  let saveTarget: string | null = null;
  let picked: string[] = [];
  let pickedFolder: string | null = null;
  const serverQuestions: string[] = [];
  let services: MainServices;
  let remote: TestServer;

  const call = <C extends IpcChannel>(channel: C, ...request: IpcRequest<C> extends void ? [] : [IpcRequest<C>]) =>
    invokeHandler(services.handlers, channel, request[0] as IpcRequest<C>, (error) => {
      throw error;
    });
  const ok = async <C extends IpcChannel>(
    channel: C,
    ...request: IpcRequest<C> extends void ? [] : [IpcRequest<C>]
  ): Promise<IpcResponse<C>> => {
    const result = await call(channel, ...request);
    if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
    return result.value;
  };
  /** The dictionary an import left, which only an import that sent lines has. */
  const detailOf = (result: DictionaryImport): DictionaryDetail => {
    if (result.outcome === 'checked' || !result.detail) throw new Error(`no dictionary in ${JSON.stringify(result)}`);
    return result.detail;
  };
  const refused = async <C extends IpcChannel>(channel: C, request: unknown) => {
    const result = await invokeHandler(services.handlers, channel, request as IpcRequest<C>);
    if (result.ok) throw new Error(`${channel} accepted ${JSON.stringify(request)}`);
    return result.error;
  };

  beforeAll(async () => {
    picked = [copyAs(await shortSpeech(), dir, 'budget meeting.wav')];
    remote = await startTestServer();
    services = await createMainServices({
      userDataDir: path.join(dir, 'user-data'),
      dialogs: {
        openAudioFiles: async () => picked,
        openModelFile: async () => null,
        openFolder: async () => pickedFolder,
        saveFile: async (defaultName) => {
          saved.push(defaultName);
          return saveTarget;
        },
        confirmServer: async (server) => {
          serverQuestions.push(server.baseUrl);
          return true;
        },
      },
      notifier: notes.notifier,
      secrets: createAesGcmSecretBox(Buffer.alloc(32, 5)),
      settings: createConfSettingsStore({ cwd: path.join(dir, 'user-data') }),
      emit: events.emit,
      serverCommand: { command: process.execPath, args: [CLI] },
      appVersion: '0.1.0-test',
      platform: 'linux',
      locale: 'en-US',
      tuning: {
        syncIntervals: { minMs: 100, maxMs: 500, offlineMaxMs: 500 },
        retry: { retries: 1, baseDelayMs: 20, maxDelayMs: 50 },
      },
    });
    await services.start();
    await events.next('connection:changed', (s) => s.online && s.activeProfileId === 'embedded');
  });
  afterAll(async () => {
    await services?.stop();
    await remote?.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('has a handler for every channel of the contract, and no other', () => {
    expect(Object.keys(services.handlers).sort()).toEqual([...IPC_CHANNELS].sort());
  });

  it('validates every payload at the boundary', async () => {
    expect(await refused('transcripts:get', { id: 5 })).toMatchObject({ code: 'validation', field: 'id' });
    expect(await refused('transcripts:get', { id: 'a', extra: 1 })).toMatchObject({
      code: 'validation',
      field: 'extra',
    });
    expect(await refused('transcripts:list', { limit: 0 })).toMatchObject({ code: 'validation', field: 'limit' });
    expect(await refused('settings:update', { playbackRate: 10 })).toMatchObject({
      code: 'validation',
      field: 'playbackRate',
    });
    expect(await refused('search:query', { text: '' })).toMatchObject({ code: 'validation', field: 'text' });
    expect(await refused('uploads:add', { files: [], options: OPTIONS })).toMatchObject({
      code: 'validation',
      field: 'files',
    });
    const unknown = `file-${'0'.repeat(32)}`;
    expect(
      await refused('uploads:add', { files: [unknown], options: { ...OPTIONS, minSpeakers: 3, maxSpeakers: 2 } }),
    ).toMatchObject({
      code: 'validation',
      field: 'options.minSpeakers',
    });
    expect(
      await refused('uploads:add', { files: [unknown], options: { ...OPTIONS, language: 'english' } }),
    ).toMatchObject({ field: 'options.language' });
    expect(
      await refused('transcripts:export', { id: 'x', options: { format: 'pdf', speakers: true, timestamps: true } }),
    ).toMatchObject({
      field: 'options.format',
    });
    expect(await refused('analysis:request', { id: 'x', kind: 'translation' })).toMatchObject({ field: 'language' });
    expect(await refused('analysis:translation-targets', { id: 'x', language: 'es' })).toMatchObject({
      code: 'validation',
    });
    expect(await refused('profiles:add', { name: 'x', baseUrl: 'ftp://nope', apiKey: 'k' })).toMatchObject({
      field: 'baseUrl',
    });
    expect(await refused('connection:status', { surprise: true })).toMatchObject({ code: 'validation' });
    // A speaker's name: at most LIMITS.speakerName characters, on the rename channel and as an edit operation.
    const long = 'x'.repeat(LIMITS.speakerName + 1);
    expect(await refused('transcripts:rename-speaker', { id: 'x', speaker: 'SPEAKER_1', name: long })).toMatchObject({
      code: 'validation',
      field: 'name',
    });
    expect(
      await refused('transcripts:edit-document', {
        id: 'x',
        operation: { kind: 'speaker-name', speaker: 'SPEAKER_1', name: long },
      }),
    ).toMatchObject({ code: 'validation', field: expect.stringMatching(/^operation/) });
    expect(
      await refused('transcripts:edit-document', {
        id: 'x',
        operation: { kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'Ann', segmentId: 0 },
      }),
    ).toMatchObject({ code: 'validation' });
  });

  it('answers app, settings, profile and connection channels', async () => {
    expect(await ok('app:info')).toEqual({ version: '0.1.0-test', platform: 'linux', locale: 'en-US' });
    expect((await ok('settings:get')).activeProfileId).toBe('embedded');
    const updated = await ok('settings:update', {
      playbackRate: 1.25,
      defaults: { language: 'en', model: 'default', numSpeakers: null },
    });
    expect(updated).toMatchObject({ playbackRate: 1.25, defaults: { language: 'en' }, notifications: true });
    const [embedded] = await ok('profiles:list');
    expect(embedded).toMatchObject({
      id: 'embedded',
      kind: 'embedded',
      baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
    });
    expect(await ok('connection:status')).toMatchObject({ activeProfileId: 'embedded', online: true, detail: null });
  });

  it('uploads a picked file, follows it to COMPLETED, and serves, edits, searches and exports it', async () => {
    const offers = await ok('uploads:pick');
    expect(offers).toEqual([
      {
        handle: expect.stringMatching(/^file-[0-9a-f]{32}$/),
        kind: 'file',
        name: 'budget meeting.wav',
        size: fs.statSync(picked[0]!).size,
        // Told by ffprobe, so the form asks about multichannel only for two or more (decision 0061).
        channels: 1,
      },
    ]);
    // Notifications are written in the UI's language when they are shown (decision 0068).
    await ok('settings:update', { uiLanguage: 'ja' });
    // Two speakers asked for, so that segments carry speaker labels to rename.
    const [job] = await ok('uploads:add', {
      files: offers.map((offer) => offer.handle),
      options: { ...OPTIONS, numSpeakers: 2 },
    });
    // A handle is answered once: replayed, it is refused before anything is read.
    expect(await refused('uploads:add', { files: [offers[0]!.handle], options: OPTIONS })).toMatchObject({
      code: 'not-found',
      field: 'files.0',
    });
    const done = await events.next('uploads:changed', (j) => j.id === job!.id && j.state === 'done');
    const id = done.transcriptionId!;
    expect((await ok('uploads:list')).find((j) => j.id === job!.id)?.state).toBe('done');
    await until(() => notes.notifications.find((n) => n.transcriptionId === id));
    expect(notes.notifications.find((n) => n.transcriptionId === id)).toMatchObject({
      title: '文字起こしが完了しました',
      body: '「budget meeting.wav」の準備ができました。',
    });
    await ok('settings:update', { uiLanguage: 'en' });

    const list = await ok('transcripts:list', { filter: { status: ['COMPLETED'] } });
    expect(list.items.find((t) => t.id === id)).toMatchObject({
      name: 'budget meeting.wav',
      status: 'COMPLETED',
      audioCached: true,
      languages: ['en'],
    });
    expect((await ok('transcripts:list', { filter: { text: 'budget' } })).items.map((t) => t.id)).toContain(id);

    const detail = await ok('transcripts:get', { id });
    expect(detail.document?.text).toContain('budget');
    const [hit] = await ok('search:query', { text: 'budget' });
    expect(hit).toMatchObject({
      transcriptionId: id,
      kind: 'transcript',
      start: expect.any(Number),
      snippet: expect.stringContaining('[[budget]]'),
    });

    // A dictionary applied afterwards rewrites the transcript on the server; the rewritten word is marked.
    const rules = await ok('dictionaries:create', { name: 'Applied later', words: [] });
    await ok('dictionaries:add-replacement-rules', {
      id: rules.id,
      replacementRules: [{ pattern: 'budget', replacement: 'Q3 budget' }],
    });
    const applied = await ok('transcripts:apply-dictionary', { id, dictionaryId: rules.id });
    const replaced = applied.document!.segments.flatMap((s) => s.words).find((w) => w.word === 'Q3 budget');
    expect(replaced?.replaced).toEqual({ pattern: 'budget', original: expect.stringMatching(/^budget$/i) });
    expect(applied.document!.replacements).toEqual([
      expect.objectContaining({ pattern: 'budget', replacement: 'Q3 budget', count: 1 }),
    ]);
    expect(await refused('transcripts:apply-dictionary', { id, dictionaryId: 'no-such-dictionary' })).toMatchObject({
      code: 'not-found',
    });
    await ok('dictionaries:delete', { id: rules.id });

    const segment = detail.document!.segments[0]!;
    const edited = await ok('transcripts:edit', { id, segments: [{ id: segment.id, text: `${segment.text} indeed` }] });
    expect(edited).toMatchObject({ unsyncedEdits: false });
    expect(edited.document!.segments[0]!.text).toBe(`${segment.text} indeed`);
    expect(await refused('transcripts:rename-speaker', { id, speaker: 'SPEAKER_9', name: 'Ann' })).toMatchObject({
      code: 'validation',
      field: 'speaker',
    });

    // A renamed speaker keeps its label in the document; the name is shown from the map, and exported.
    const label = segment.speaker!;
    expect(label).toMatch(/^SPEAKER_/);
    const renamed = await ok('transcripts:rename-speaker', { id, speaker: label, name: 'Ann' });
    expect(renamed.speakerNames).toEqual({ [label]: 'Ann' });
    // The name is part of the server's document, renamed through a revision (decision 0055).
    expect(renamed.document!.speaker_names).toEqual({ [label]: 'Ann' });
    expect(renamed.document!.segments[0]!.speaker).toBe(label);
    expect((await ok('transcripts:get', { id })).speakerNames).toEqual({ [label]: 'Ann' });

    saveTarget = path.join(dir, 'export.srt');
    // Dual-language subtitles need a finished translation on this computer: refused next to that option, before the save dialog.
    const subtitles = {
      maxCharsPerLine: 30,
      maxLinesPerCue: 2,
      maxCueDuration: 7,
      minGap: 0.08,
      speakerStyle: 'prefix' as const,
      translation: 'fr',
    };
    expect(
      await refused('transcripts:export', {
        id,
        options: { format: 'srt', speakers: true, timestamps: false, subtitles },
      }),
    ).toMatchObject({
      code: 'not-found',
      field: 'translation',
      reason: 'app.translation-not-cached',
      params: { language: 'fr' },
    });
    const exported = await ok('transcripts:export', {
      id,
      options: { format: 'srt', speakers: true, timestamps: true },
    });
    expect(exported).toEqual({
      path: saveTarget,
      subtitles: { cues: expect.any(Number), tooFast: expect.any(Number), maxCps: 17, fast: expect.any(Array) },
    });
    expect(exported!.subtitles!.fast).toHaveLength(exported!.subtitles!.tooFast);
    expect(saved.at(-1)).toBe('budget meeting.srt');
    const srt = fs.readFileSync(saveTarget, 'utf8');
    expect(srt).toContain('indeed');
    expect(srt).toContain('Ann: ');
    expect(srt).not.toContain('SPEAKER_');

    saveTarget = null;
    expect(
      await ok('transcripts:export', { id, options: { format: 'txt', speakers: false, timestamps: false } }),
    ).toBeNull();

    expect(await ok('audio:source', { id })).toEqual({ url: mediaUrlOf(id), local: true });
    const media = await services.resolveMediaPath(id);
    expect(fs.statSync(media!).size).toBe(fs.statSync(picked[0]!).size);
    expect(await services.resolveMediaPath('unknown')).toBeNull();
    const peaks = await ok('audio:peaks', { id });
    expect(peaks.resolution).toBe(50);
    expect(peaks.peaks[0]!.length).toBeGreaterThan(100);

    const analysis = await call('analysis:request', { id, kind: 'summary' });
    // The embedded server may have no summary engine configured: then it says so.
    if (analysis.ok) expect(['IN_PROGRESS', 'COMPLETED', 'FAILED']).toContain(analysis.value.status);
    else expect(analysis.error.code).toBe('unsupported');
    // What the picker lists: the server's offline pairs from the transcript's language (issue 27).
    const targets = await ok('analysis:translation-targets', { id });
    expect(targets).toMatchObject({ source: 'en', llm: [], llmAnyLanguage: false });
    expect(targets.offline).toContain('es');
    expect((await ok('transcripts:refresh')).online).toBe(true);
  });

  it('manages dictionaries end to end, including imports', async () => {
    const created = await ok('dictionaries:create', {
      name: 'Products',
      words: [{ word: 'Kikitori', reading: 'key key tory' }],
    });
    const id = created.id;
    expect(created).toMatchObject({
      name: 'Products',
      isTemporary: false,
      words: [{ word: 'Kikitori', reading: 'key key tory' }],
      replacementRules: [],
    });
    expect((await ok('dictionaries:rename', { id, name: 'Product names' })).name).toBe('Product names');
    await ok('dictionaries:add-words', { id, words: [{ word: 'Zintrix' }] });
    const imported = await ok('dictionaries:import', {
      id,
      kind: 'words',
      text: 'word,reading\nAlpha,al fa\n"Beta, Inc",\n\nGamma',
    });
    expect(imported).toMatchObject({ outcome: 'imported', importedLines: 3, skippedLines: 0, duplicateLines: 0 });
    expect(detailOf(imported).words.map((w) => w.word)).toEqual(
      expect.arrayContaining(['Kikitori', 'Zintrix', 'Alpha', 'Beta, Inc', 'Gamma']),
    );
    // A bad line is named by number, text and a closed problem code, and nothing is sent…
    expect(await ok('dictionaries:import', { id, kind: 'words', text: 'Delta\n,reading only' })).toEqual({
      outcome: 'checked',
      problems: [{ line: 2, text: ',reading only', problem: 'word-empty' }],
      badLines: 1,
      goodLines: 1,
    });
    expect((await ok('dictionaries:get', { id })).words.map((w) => w.word)).not.toContain('Delta');
    // …until the user asks for the others.
    const others = await ok('dictionaries:import', {
      id,
      kind: 'words',
      text: 'Delta\n,reading only',
      skipBadLines: true,
    });
    expect(others).toMatchObject({ outcome: 'imported', importedLines: 1, skippedLines: 1, duplicateLines: 0 });
    expect(detailOf(others).words.map((w) => w.word)).toContain('Delta');
    // Words already there (same word and reading, whatever the case or width), or twice in the paste, are
    // left out and counted (decision 0102); another reading is another word.
    const again = await ok('dictionaries:import', {
      id,
      kind: 'words',
      text: 'ALPHA,Al Fa\nＧａｍｍａ\nEpsilon\nepsilon\nAlpha,alpha',
    });
    expect(again).toMatchObject({ outcome: 'imported', importedLines: 2, skippedLines: 0, duplicateLines: 3 });
    const words = detailOf(again).words.map((w) => `${w.word}/${w.reading ?? ''}`);
    expect(words.filter((w) => /^alpha\//i.test(w)).sort()).toEqual(['Alpha/al fa', 'Alpha/alpha']);
    expect(words.filter((w) => /^(gamma|ｇａｍｍａ)\//i.test(w))).toEqual(['Gamma/']);
    expect(words.filter((w) => /^epsilon\//i.test(w))).toEqual(['Epsilon/']);
    await ok('dictionaries:add-replacement-rules', {
      id,
      replacementRules: [{ pattern: 'gonna', replacement: 'going to' }],
    });
    const rules = await ok('dictionaries:import', {
      id,
      kind: 'replacement-rules',
      text: 'key key tory => Kikitori\nwanna,want to',
    });
    expect(detailOf(rules).replacementRules.map((r) => [r.pattern, r.replacement])).toEqual([
      ['gonna', 'going to'],
      ['key key tory', 'Kikitori'],
      ['wanna', 'want to'],
    ]);
    const zintrix = detailOf(rules).words.find((w) => w.word === 'Zintrix')!;
    expect((await ok('dictionaries:remove-word', { id, wordId: zintrix.id })).words.map((w) => w.word)).not.toContain(
      'Zintrix',
    );
    expect(
      (
        await ok('dictionaries:remove-replacement-rule', {
          id,
          replacementRuleId: detailOf(rules).replacementRules[0]!.id,
        })
      ).replacementRules,
    ).toHaveLength(2);
    expect((await ok('dictionaries:get', { id })).name).toBe('Product names');
    expect((await ok('dictionaries:list')).find((d) => d.id === id)).toMatchObject({
      name: 'Product names',
      isTemporary: false,
    });
    await ok('dictionaries:delete', { id });
    expect((await ok('dictionaries:list')).map((d) => d.id)).not.toContain(id);
    expect(await refused('dictionaries:get', { id })).toMatchObject({ code: 'not-found' });
  });

  it('switches to a remote server profile with its own cache, serves that cache offline, and switches back', async () => {
    const embeddedIds = (await ok('transcripts:list', {})).items.map((t) => t.id);
    expect(embeddedIds.length).toBeGreaterThan(0);

    // A refused key: the connection says what to do.
    const wrong = await ok('profiles:add', { name: 'Wrong key', baseUrl: remote.url, apiKey: 'not-a-key' });
    await ok('profiles:activate', { id: wrong.id });
    expect(serverQuestions).toEqual([remote.url]);
    await events.next(
      'connection:changed',
      (s) => s.activeProfileId === wrong.id && s.detail?.reason === 'app.unauthorized',
    );
    await ok('profiles:remove', { id: wrong.id });
    expect((await ok('connection:status')).activeProfileId).toBe('embedded');

    const key = await remote.key('team', 'bob', ['DELETE']);
    await remote.api(key, 'POST', '/api/v1/dictionaries', { name: 'Remote words' });
    const profile = await ok('profiles:add', { name: 'Team server', baseUrl: `${remote.url}/`, apiKey: key });
    expect(profile).toMatchObject({ kind: 'remote', baseUrl: remote.url });
    expect((await ok('profiles:list')).map((p) => p.id)).toEqual(['embedded', profile.id]);
    expect((await ok('profiles:activate', { id: profile.id })).activeProfileId).toBe(profile.id);
    expect(serverQuestions).toEqual([remote.url, remote.url]);
    await events.next('connection:changed', (s) => s.activeProfileId === profile.id && s.online);
    expect((await ok('transcripts:list', {})).items).toEqual([]);
    expect((await ok('dictionaries:list')).map((d) => d.name)).toEqual(['Remote words']);

    // The remote server goes away: the cache still answers; changes that need the server are refused clearly.
    await remote.runtime.close();
    expect((await ok('transcripts:refresh')).online).toBe(false);
    expect((await ok('dictionaries:list')).map((d) => d.name)).toEqual(['Remote words']);
    expect(await refused('dictionaries:create', { name: 'Offline' })).toMatchObject({
      code: 'offline',
      reason: 'app.dictionary-offline',
    });

    // Back to this computer: its cache and server are as they were (and this computer's server is not asked about).
    await ok('profiles:activate', { id: 'embedded' });
    expect(serverQuestions).toHaveLength(2);
    expect((await ok('transcripts:list', {})).items.map((t) => t.id)).toEqual(embeddedIds);
    await until(async () => (await ok('connection:status')).online);
  });

  it('deletes a transcription on the server and on this computer', async () => {
    const [job] = await ok('uploads:list');
    await ok('uploads:cancel', { id: job!.id }); // already done: nothing to cancel
    const id = job!.transcriptionId!;
    // Clearing finished uploads forgets the upload rows, not the transcription.
    expect(await ok('uploads:clear-finished')).toBeGreaterThanOrEqual(1);
    expect((await ok('uploads:list')).find((j) => j.id === job!.id)).toBeUndefined();
    expect((await ok('transcripts:list', {})).items.map((t) => t.id)).toContain(id);
    await ok('transcripts:delete', { id });
    expect((await ok('transcripts:list', {})).items.map((t) => t.id)).not.toContain(id);
    expect(await services.resolveMediaPath(id)).toBeNull();
    expect(await ok('search:query', { text: 'budget' })).toEqual([]);
    await ok('transcripts:refresh');
    expect((await ok('transcripts:list', {})).total).toBe(0);
  });

  it('imports a chosen folder: its recordings are queued with the options, the rest counted, never named', async () => {
    expect(await ok('uploads:pick-folder')).toBeNull();
    const folder = path.join(dir, 'Field recordings');
    fs.mkdirSync(path.join(folder, 'day 2'), { recursive: true });
    copyAs(picked[0]!, folder, 'morning.wav');
    copyAs(picked[0]!, path.join(folder, 'day 2'), 'evening.wav');
    fs.writeFileSync(path.join(folder, 'notes.txt'), 'who said what\n');
    fs.writeFileSync(
      path.join(folder, 'day 2', 'salaries 2026.pdf'),
      Buffer.concat([
        Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n', 'latin1'),
        Buffer.alloc(200, 0x20),
      ]),
    );
    pickedFolder = folder;
    const offered = await ok('uploads:pick-folder');
    expect(offered).toEqual({
      handle: expect.stringMatching(/^file-[0-9a-f]{32}$/),
      kind: 'folder',
      name: 'Field recordings',
      size: null,
    });

    expect(
      await refused('uploads:add-folder', {
        folder: offered!.handle,
        options: { ...OPTIONS, minSpeakers: 3, maxSpeakers: 2 },
      }),
    ).toMatchObject({ field: 'options.minSpeakers' });
    // A folder gone by the time it was picked, or after.
    pickedFolder = path.join(dir, 'nowhere');
    expect(await refused('uploads:pick-folder', undefined)).toMatchObject({
      code: 'not-found',
      reason: 'app.file-unreadable',
      params: { name: 'nowhere' },
    });
    const gone = path.join(dir, 'gone soon');
    fs.mkdirSync(gone);
    pickedFolder = gone;
    const goneOffer = await ok('uploads:pick-folder');
    fs.rmdirSync(gone);
    expect(await refused('uploads:add-folder', { folder: goneOffer!.handle, options: OPTIONS })).toMatchObject({
      code: 'validation',
      field: 'folder',
      reason: 'app.folder-unreadable',
      params: { folder: expect.stringContaining('gone soon') },
    });

    const imported = await ok('uploads:add-folder', {
      folder: offered!.handle,
      options: { ...OPTIONS, numSpeakers: 1 },
    });
    expect(imported).toMatchObject({
      folder: 'Field recordings',
      skipped: { 'not-media': 2 },
      notMedia: { pdf: 1, text: 1 },
      foldersTooDeep: 0,
    });
    // The renderer learns the media files it queued, and no name of a file it did not.
    expect(JSON.stringify(imported)).not.toMatch(/notes|salaries/);
    expect(imported.jobs.map((job) => job.fileName)).toEqual(['morning.wav', 'evening.wav']);
    for (const job of imported.jobs) await events.next('uploads:changed', (j) => j.id === job.id && j.state === 'done');
  });

  it('stops everything, the embedded server included', async () => {
    const [embedded] = await ok('profiles:list');
    expect((await fetch(`${embedded!.baseUrl}/healthz`)).status).toBe(200);
    await services.stop();
    await expect(fetch(`${embedded!.baseUrl}/healthz`)).rejects.toThrow();
  });
});
