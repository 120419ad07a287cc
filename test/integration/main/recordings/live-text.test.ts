// Live text while recording (decision 0073): main's live session against the real server's GET /v1/realtime,
// fed real synthesized speech at real-time pace as the renderer would send it. Between main and the server
// sits a plain TCP relay the test can cut and restore, to drop the connection mid-recording as a network
// would. The recording itself is real chunks kept on disk by the real RecordingService.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveText, UploadOptions } from '../../../../src-shared/ipc-contract.js';
import { openCacheStore } from '../../../../src-main/cache/cache-store.js';
import { RecordingService } from '../../../../src-main/recordings/recording-service.js';
import { UploadManager } from '../../../../src-main/uploads/upload-manager.js';
import { synthesizeSpeech } from '../../../support/audio-fixtures.js';
import { startTestServer, tempDir, transcribeFile, type TestServer } from '../../../support/test-server.js';
import { clientOf, shortSpeech } from '../main-test-support.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RATE = 16000;

/** A TCP relay to `target` on a port that stays the same when it is cut and restored. */
class Relay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async up(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Refuses new connections and breaks the open ones, as a lost network does. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Every live text main reported, and a way to wait for one that matches. */
class Texts {
  readonly all: LiveText[] = [];
  private waiters: { match: (t: LiveText) => boolean; resolve: (t: LiveText) => void }[] = [];
  push = (text: LiveText) => {
    this.all.push(text);
    this.waiters = this.waiters.filter((w) => (w.match(text) ? (w.resolve(text), false) : true));
  };
  next(match: (t: LiveText) => boolean, from = 0): Promise<LiveText> {
    const found = this.all.slice(from).find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}

let server: TestServer;
let key: string;
let speech: Buffer;
let speechWav: string;
const root = tempDir('kikitori-live-text-');

beforeAll(async () => {
  server = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
  key = await server.key('acme');
  speechWav = await synthesizeSpeech('the budget meeting moved to next week');
  speech = await pcm16k(speechWav);
});

async function pcm16k(wav: string): Promise<Buffer> {
  const raw = path.join(tempDir(), 'speech-16k.raw');
  await run('sox', [wav, '-t', 'raw', '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', raw]);
  return fsp.readFile(raw);
}
afterAll(async () => {
  await server?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let n = 0;
function setup(baseUrl: string, apiKey = key) {
  const store = openCacheStore(':memory:');
  const uploads = new UploadManager({
    uploads: store.uploads,
    client: clientOf({ url: 'http://127.0.0.1:9' }, 'unused'),
    onChange: () => {},
  });
  const texts = new Texts();
  const service = new RecordingService({
    dir: path.join(root, `r${++n}`),
    uploads,
    repository: store.uploads,
    live: { connection: () => ({ baseUrl, apiKey }), onText: texts.push, retry: { baseDelayMs: 100, maxDelayMs: 400 } },
  });
  return { service, texts, store };
}

/**
 * Speech (from byte `from`) then a second of silence (so server VAD ends the turn), as the renderer's
 * quarter-second chunks at real pace.
 */
async function speak(service: RecordingService, id: string, from = 0, words = speech): Promise<void> {
  const audio = Buffer.concat([words.subarray(from - (from % 2)), Buffer.alloc(RATE * 2)]);
  const chunk = RATE / 2; // 250 ms of PCM16
  for (let at = 0; at < audio.length; at += chunk) {
    service.liveAudio(id, audio.subarray(at, at + chunk));
    await sleep(250);
  }
}

const OPTIONS: UploadOptions = {
  language: 'en',
  model: 'default',
  numSpeakers: null,
  minSpeakers: null,
  maxSpeakers: null,
  dictionaryId: null,
  words: [],
};

describe('live text while recording', () => {
  it('shows partial words while speaking, then the final words of the turn', async () => {
    const { service, texts } = setup(server.url);
    const recording = await service.start('audio/webm;codecs=opus', 'Recording', {
      language: 'en',
      dictionaryId: null,
    });
    await texts.next((t) => t.state === 'live');
    await speak(service, recording.id);
    const final = await texts.next((t) => t.finals.length > 0);
    expect(final.id).toBe(recording.id);
    expect(final.finals.map((f) => f.text).join(' ')).toMatch(/budget/);
    expect(final.finals.map((f) => f.text).join(' ')).toMatch(/meeting/);
    // This team has no voice library: nobody is named.
    expect(final.finals.every((f) => f.speaker === null)).toBe(true);
    // Before the turn completed, some of its words were shown as partial.
    const firstFinal = texts.all.indexOf(final);
    const partials = texts.all.slice(0, firstFinal).filter((t) => t.partial !== '');
    expect(partials.length).toBeGreaterThan(0);
    expect(partials.every((t) => t.finals.length === 0)).toBe(true);
    service.endLive();
  });

  it('keeps the audio spoken while the session is still opening, so live text starts at the first word', async () => {
    const { service, texts } = setup(server.url);
    const recording = await service.start('audio/webm;codecs=opus', 'Recording', {
      language: 'en',
      dictionaryId: null,
    });
    // The user starts speaking at once: the first second and a half reaches main before the server has
    // answered the session's settings (it was dropped, and live text began mid-word).
    const opening = RATE * 2 * 1.5;
    for (let at = 0; at < opening; at += RATE / 2) service.liveAudio(recording.id, speech.subarray(at, at + RATE / 2));
    expect(texts.all.some((t) => t.state === 'live')).toBe(false);
    await texts.next((t) => t.state === 'live');
    await speak(service, recording.id, opening);
    const final = await texts.next((t) => t.finals.length > 0);
    expect(final.finals.map((f) => f.text).join(' ')).toMatch(/budget/);
    service.endLive();
  });

  it('a voice of the team names its turns in live text', async () => {
    const teamKey = await server.key('initech');
    // Enrolled from another recording of the same voice, as "This is…" would.
    const enrolment = await synthesizeSpeech('please send the quarterly report to the marketing team before friday');
    const source = await transcribeFile(server, teamKey, enrolment, { language: 'en' });
    const duration = (await server.api(teamKey, 'GET', `/api/v1/transcriptions/${source}`)).json.duration as number;
    const enrolled = await server.api(teamKey, 'POST', '/api/v1/speakers', {
      name: 'Alice',
      samples: [{ transcription_id: source, start: 0, end: duration }],
    });
    expect(enrolled.status).toBe(200);
    const longer = await pcm16k(
      await synthesizeSpeech('the budget meeting moved to next week because the room is taken'),
    );
    const { service, texts } = setup(server.url, teamKey);
    const recording = await service.start('audio/webm', 'Recording', { language: 'en', dictionaryId: null });
    await texts.next((t) => t.state === 'live');
    await speak(service, recording.id, 0, longer);
    const final = await texts.next((t) => t.finals.length > 0);
    expect(final.finals[0]).toMatchObject({ text: expect.stringMatching(/budget/), speaker: 'Alice' });
    service.endLive();
  });

  it('a dropped connection pauses live text and loses no recording; live text resumes when the server is back', async () => {
    const target = new URL(server.url);
    const relay = new Relay({ host: target.hostname, port: Number(target.port) });
    await relay.up();
    try {
      const { service, texts, store } = setup(relay.url);
      const recording = await service.start('audio/webm;codecs=opus', 'Recording', {
        language: 'en',
        dictionaryId: null,
      });
      await texts.next((t) => t.state === 'live');
      // A real recording's bytes, in two chunks: one before the drop, one during it.
      const whole = fs.readFileSync(await shortSpeech());
      const first = whole.subarray(0, whole.length >> 1);
      const second = whole.subarray(first.length);
      expect(await service.append(recording.id, 0, first)).toEqual({ size: first.length });

      await relay.down();
      const paused = texts.all.length;
      await texts.next((t) => t.state === 'paused', paused);
      // Audio while the server is gone: the file keeps growing, live text simply has nothing to show.
      service.liveAudio(recording.id, speech.subarray(0, RATE));
      expect(await service.append(recording.id, first.length, second)).toEqual({
        size: first.length + second.length,
      });

      await relay.up();
      const back = texts.all.length;
      await texts.next((t) => t.state === 'live', back);
      // Speech already under way when the connection came back: that turn's start is cut, and shown so.
      const finalsBefore = texts.all[back - 1]!.finals.length;
      await speak(service, recording.id, speech.length >> 1);
      const cut = await texts.next((t) => t.finals.length > finalsBefore, back);
      expect(cut.finals[finalsBefore]!.text).toMatch(/^… \S/);
      await speak(service, recording.id);
      const final = await texts.next((t) => t.finals.length > finalsBefore + 1, back);
      expect(final.finals[finalsBefore + 1]!.text).toMatch(/budget/);
      expect(final.finals[finalsBefore + 1]!.text).not.toMatch(/^…/);

      const job = await service.finish(recording.id, OPTIONS);
      expect(job.state).toBe('queued');
      expect(fs.readFileSync(job.filePath).equals(whole)).toBe(true);
      // Stop ends the live session: nothing more is reported for this recording.
      const after = texts.all.length;
      service.liveAudio(recording.id, speech.subarray(0, RATE));
      await relay.down();
      await sleep(300);
      expect(texts.all.length).toBe(after);
      store.close();
    } finally {
      await relay.down();
    }
  });

  it('a server without live transcription: live text is unavailable at once, never retried; recording goes on', async () => {
    let upgrades = 0;
    const plain = http.createServer((request, response) => {
      upgrades++;
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
    });
    plain.on('upgrade', (_request, socket) => {
      upgrades++;
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const { service, texts } = setup(`http://127.0.0.1:${(plain.address() as net.AddressInfo).port}`);
      const recording = await service.start('audio/webm', 'Recording', { language: 'en', dictionaryId: null });
      const unavailable = await texts.next((t) => t.state !== 'connecting');
      expect(unavailable).toMatchObject({ id: recording.id, state: 'unavailable', finals: [], partial: '' });
      service.liveAudio(recording.id, speech.subarray(0, RATE));
      expect(await service.append(recording.id, 0, Buffer.from('kept anyway'))).toEqual({ size: 11 });
      await sleep(500);
      expect(upgrades).toBe(1);
      service.endLive();
    } finally {
      plain.close();
    }
  });

  it('a refused key or an unknown dictionary makes live text unavailable, not a loop of retries', async () => {
    const refused = setup(server.url, 'kk_not_a_key');
    const a = await refused.service.start('audio/webm', 'Recording', { language: 'en', dictionaryId: null });
    expect(await refused.texts.next((t) => t.state !== 'connecting')).toMatchObject({ id: a.id, state: 'unavailable' });
    refused.service.endLive();

    const other = setup(server.url);
    const b = await other.service.start('audio/webm', 'Recording', {
      language: 'en',
      dictionaryId: '00000000-0000-4000-8000-000000000000',
    });
    expect(await other.texts.next((t) => t.state !== 'connecting')).toMatchObject({ id: b.id, state: 'unavailable' });
    other.service.endLive();
  });
});
