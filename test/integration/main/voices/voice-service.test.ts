// The voice library in the app (decision 0075) over a real server and a real SQLite cache file, with two
// generated voices: "This is…" enrols a voice from one speaker's turns and names the speaker by a revision;
// a new transcription shows the recognized name; a voice is extended, renamed, listed offline from the
// cache (changes refused), deleted; another team's voice is a clean not-found.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCacheStore, type CacheStore } from '../../../../src-main/cache/cache-store.js';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { VoiceService } from '../../../../src-main/voices/voice-service.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import {
  audioDuration,
  concatWithSilence,
  synthesizeSpeech,
  toWav16k,
  type Voice,
} from '../../../support/audio-fixtures.js';
import { startTestServer, tempDir, transcribeFile, type TestServer } from '../../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../../support/two-voice-meeting.js';
import { deadUrl, editingServices } from '../main-test-support.js';

let server: TestServer;
let key: string;
let otherKey: string;
let meeting: TwoVoiceMeeting;
let source: string;
let store: CacheStore;
let baseUrl: string;
let services: ReturnType<typeof editingServices>;
let voices: VoiceService;
const dir = tempDir('kikitori-voices-');

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme');
  otherKey = await server.key('globex');
  meeting = await twoVoiceMeeting();
  source = await transcribeFile(server, key, meeting.wav, { language: 'en' });
  baseUrl = server.url;
  store = openCacheStore(path.join(dir, 'cache.sqlite'));
  services = editingServices({
    connection: () => ({ baseUrl, apiKey: key }),
    store,
    audioDir: path.join(dir, 'audio'),
    notify: () => {},
  });
  voices = new VoiceService({ store, ...services });
});
afterAll(async () => {
  store?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The separated label of festival's turns in a transcription of the meeting. */
function festivalLabel(document: TranscriptDocument): string {
  const turn = meeting.reference.find((r) => r.voice === 'festival')!;
  const middle = (turn.start + turn.end) / 2;
  const segment = document.segments.find((s) => s.start <= middle && s.end >= middle)!;
  expect(segment.speaker).toMatch(/^SPEAKER_\d+$/);
  return segment.speaker!;
}

async function failureOf(run: () => Promise<unknown>): Promise<AppFailure> {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppFailure) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

/**
 * Another meeting of festival's voice, other sentences, with two espeak voices that are not the meeting's:
 * what a user transcribes after "This is…" on the first (the cross-file case, not a copy of the file).
 */
const THREE_PEOPLE: [Voice, string, string][] = [
  ['espeak', 'hello all, shall we start', 'en-us+m3'],
  ['festival', 'yes, i have three items about hiring and travel', ''],
  ['espeak', 'go ahead please', 'en-us+f2'],
  ['festival', 'we need two engineers and a designer before the summer', ''],
  ['espeak', 'that sounds expensive', 'en-us+m3'],
  ['festival', 'it is, but the project is late already and we cannot wait', ''],
  ['espeak', 'agreed, let us write it down', 'en-us+f2'],
];

async function threePeople(): Promise<{ wav: string; festival: { start: number; end: number }[] }> {
  const parts = await Promise.all(
    THREE_PEOPLE.map(([voice, text, espeakVoice]) =>
      synthesizeSpeech(text, undefined, { voice, ...(espeakVoice ? { espeakVoice } : {}) }),
    ),
  );
  const lengths = await Promise.all(parts.map(async (p) => audioDuration(await toWav16k(p))));
  const festival: { start: number; end: number }[] = [];
  let t = 0;
  lengths.forEach((length, i) => {
    if (THREE_PEOPLE[i]![0] === 'festival') festival.push({ start: t, end: t + length });
    t += length + 0.6;
  });
  const wav = path.join(dir, 'three-people.wav');
  fs.copyFileSync(await concatWithSilence(parts, 0.6), wav);
  return { wav, festival };
}

describe('the voice library in the app', () => {
  let aliceId: string;

  it('"This is…" enrols a voice from that speaker’s turns and names the speaker by a revision', async () => {
    const document = (await services.transcripts.detail(source)).document!;
    const label = festivalLabel(document);
    const done = await voices.identify(source, label, { name: '  Alice ' });
    expect(done.enrolled).toBe(true);
    expect(done.voice).toMatchObject({ name: 'Alice', sampleCount: expect.any(Number) });
    expect(done.sampleSeconds).toBeGreaterThanOrEqual(3);
    aliceId = done.voice.id;
    expect(done.transcript.speakerNames[label]).toBe('Alice');

    // What the server keeps: samples inside festival's turns of this transcription, never the other voice's.
    const saved = (await server.api(key, 'GET', `/api/v1/speakers/${aliceId}`)).json;
    expect(saved.samples.length).toBe(done.voice.sampleCount);
    const festival = meeting.reference.filter((r) => r.voice === 'festival');
    for (const sample of saved.samples) {
      expect(sample.transcription_id).toBe(source);
      const middle = (sample.start + sample.end) / 2;
      expect(festival.some((r) => middle >= r.start - 0.3 && middle <= r.end + 0.3)).toBe(true);
    }
    // The name landed as the transcript's latest revision, like any rename.
    const revisions = (await server.api(key, 'GET', `/api/v1/transcriptions/${source}/revisions`)).json;
    expect(revisions.revisions.at(-1).source).toBe('edit');
    const latest = (
      await server.api(key, 'GET', `/api/v1/transcriptions/${source}/revisions/${revisions.revisions.at(-1).revision}`)
    ).json;
    expect(latest.document.speaker_names).toEqual({ [label]: 'Alice' });

    expect((await voices.list()).voices.map((v) => v.name)).toEqual(['Alice']);
  });

  it('names the voice in another recording of other sentences among three people, and no one else', async () => {
    const { wav, festival } = await threePeople();
    const id = await transcribeFile(server, key, wav, { language: 'en' });
    const detail = await services.transcripts.detail(id);
    const segments = detail.document!.segments;
    const isFestival = (s: { start: number; end: number }) =>
      festival.some((r) => (s.start + s.end) / 2 >= r.start - 0.3 && (s.start + s.end) / 2 <= r.end + 0.3);
    const named = new Set(segments.filter(isFestival).map((s) => detail.speakerNames[s.speaker!]));
    expect(named).toEqual(new Set(['Alice']));
    const others = segments.filter((s) => !isFestival(s));
    expect(others.length).toBeGreaterThan(0);
    for (const s of others) expect(detail.speakerNames[s.speaker!]).toBeUndefined();
  });

  it('a new transcription shows the recognized voice by name, and "This is…" extends the voice', async () => {
    const again = await transcribeFile(server, key, meeting.wav, { language: 'en' });
    const detail = await services.transcripts.detail(again);
    const label = festivalLabel(detail.document!);
    expect(detail.document!.speaker_names ?? {}).toEqual({});
    expect(detail.speakerNames[label]).toBe('Alice');
    const before = (await voices.list()).voices[0]!.sampleCount;

    const done = await voices.identify(again, label, { id: aliceId });
    expect(done.enrolled).toBe(false);
    expect(done.voice.id).toBe(aliceId);
    expect(done.voice.sampleCount).toBeGreaterThan(before);
    // The same turns again add nothing; a name the team has extends that voice rather than making a second.
    const same = await voices.identify(again, label, { name: 'ALICE' });
    expect(same.voice).toMatchObject({ id: aliceId, sampleCount: done.voice.sampleCount });
    expect(same.sampleSeconds).toBe(0);
    expect((await voices.list()).voices).toHaveLength(1);
  });

  it('renames a voice', async () => {
    const renamed = await voices.rename(aliceId, 'Alice Smith');
    expect(renamed).toMatchObject({ id: aliceId, name: 'Alice Smith' });
    expect((await server.api(key, 'GET', `/api/v1/speakers/${aliceId}`)).json.name).toBe('Alice Smith');
  });

  it('lists the parts a voice was learned from, named from the library, and forgets one', async () => {
    const detail = await voices.samples(aliceId);
    const saved = (await server.api(key, 'GET', `/api/v1/speakers/${aliceId}`)).json;
    expect(detail.voice).toMatchObject({ id: aliceId, sampleCount: saved.samples.length });
    expect(detail.samples.map((s) => s.id).sort()).toEqual(
      saved.samples.map((s: { sample_id: string }) => s.sample_id).sort(),
    );
    // Both transcriptions were opened here, so both parts carry the transcription's name in this library.
    const names = new Set(detail.samples.map((s) => s.transcriptionName));
    expect([...names]).toEqual([store.transcriptions.get(source)!.name]);
    for (const s of detail.samples) expect(s.end).toBeGreaterThan(s.start);

    const [gone, ...kept] = detail.samples;
    const after = await voices.removeSample(aliceId, gone!.id);
    expect(after.samples.map((s) => s.id)).toEqual(kept.map((s) => s.id));
    expect(after.voice.sampleCount).toBe(kept.length);
    expect(store.voices.get(aliceId)!.sampleCount).toBe(kept.length);
    const onServer = (await server.api(key, 'GET', `/api/v1/speakers/${aliceId}`)).json;
    expect(onServer.samples.map((s: { sample_id: string }) => s.sample_id)).not.toContain(gone!.id);

    // A part the voice no longer has, or one that is not a sample id at all, is refused by the server's code.
    const again = await failureOf(() => voices.removeSample(aliceId, gone!.id));
    expect(again.error).toMatchObject({ code: 'validation', reason: 'server.SPEAKER_SAMPLE_INVALID' });
  });

  it('offline, lists the voices last seen from the cache file and refuses changes', async () => {
    baseUrl = await deadUrl();
    try {
      const list = await voices.list();
      expect(list.offline).toBe(true);
      expect(list.voices.map((v) => v.name)).toEqual(['Alice Smith']);
      expect(list.listedAt).not.toBeNull();
      // The list is in the SQLite file, not only in memory.
      const reopened = openCacheStore(path.join(dir, 'cache.sqlite'));
      expect(reopened.voices.list().map((v) => v.name)).toEqual(['Alice Smith']);
      reopened.close();
      for (const change of [
        () => voices.rename(aliceId, 'Bob'),
        () => voices.delete(aliceId),
        () => voices.identify(source, 'SPEAKER_1', { name: 'Bob' }),
        () => voices.samples(aliceId),
        () => voices.removeSample(aliceId, 'smp_1'),
      ]) {
        const failure = await failureOf(change);
        expect(failure.error).toMatchObject({ code: 'offline', reason: 'app.voice-offline' });
      }
    } finally {
      baseUrl = server.url;
    }
  });

  it('another team’s voice is not found, and nothing of it is cached', async () => {
    const theirs = await server.api(otherKey, 'POST', '/api/v1/speakers', {
      name: 'Mallory',
      samples: [],
    });
    expect(theirs.status).toBe(400);
    const theirSource = await transcribeFile(server, otherKey, meeting.wav, { language: 'en' });
    const festival = meeting.reference.filter((r) => r.voice === 'festival');
    const created = await server.api(otherKey, 'POST', '/api/v1/speakers', {
      name: 'Mallory',
      samples: festival.map((r) => ({ transcription_id: theirSource, start: r.start, end: r.end })),
    });
    expect(created.status).toBe(200);
    const theirId = created.json.speaker_id as string;
    const label = festivalLabel((await services.transcripts.detail(source)).document!);
    for (const attempt of [
      () => voices.rename(theirId, 'Mine now'),
      () => voices.delete(theirId),
      () => voices.identify(source, label, { id: theirId }),
      () => voices.samples(theirId),
      () => voices.removeSample(theirId, created.json.samples[0].sample_id),
    ]) {
      const failure = await failureOf(attempt);
      expect(failure.error).toMatchObject({ code: 'not-found', reason: 'app.not-found-voice' });
    }
    const theirs2 = (await server.api(otherKey, 'GET', `/api/v1/speakers/${theirId}`)).json;
    expect(theirs2.name).toBe('Mallory');
    expect(theirs2.samples).toHaveLength(created.json.samples.length);
    expect(store.voices.get(theirId)).toBeNull();
    // Their transcription is not a source of ours either.
    const failure = await failureOf(() => voices.identify(theirSource, label, { name: 'Eve' }));
    expect(failure.error.code).toBe('not-found');
  });

  it('a speaker with too little speech is refused before anything is sent', async () => {
    const failure = await failureOf(() => voices.identify(source, 'SPEAKER_99', { name: 'Nobody' }));
    expect(failure.error).toMatchObject({ code: 'validation', reason: 'app.voice-no-speech' });
    expect((await voices.list()).voices.map((v) => v.name)).toEqual(['Alice Smith']);
  });

  it('deletes a voice on the server and from the cache', async () => {
    await voices.delete(aliceId);
    expect((await server.api(key, 'GET', `/api/v1/speakers/${aliceId}`)).status).toBe(404);
    expect((await voices.list()).voices).toEqual([]);
    expect(store.voices.get(aliceId)).toBeNull();
  });
});
