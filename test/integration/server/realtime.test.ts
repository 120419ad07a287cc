// GET /v1/realtime: live transcription over OpenAI's Realtime protocol. The official `openai` client's
// OpenAIRealtimeWS connects unchanged (baseURL = the server's /v1) through a local TLS front, since it dials
// wss://; real synthesized speech is streamed at real-time pace. Hostile clients use `ws` directly.
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { LIMITS } from '../../../src-shared/limits.js';
import { liveTranscriptionsOf } from '../../../src-server/application/live-transcription.js';
import type { PocketsphinxEngine } from '../../../src-server/engines/speech/pocketsphinx-engine.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { Inbox, realtimeClient, type RealtimeEvent } from '../../support/realtime-client.js';
import { startTlsFront, type TlsFront } from '../../support/tls-front.js';
import { startTestServer, tempDir, waitForStatus, type TestServer } from '../../support/test-server.js';

const run = promisify(execFile);

type Event = RealtimeEvent;

/** Raw PCM16 little-endian mono of a file at `rate`, made with sox. */
async function pcmAt(file: string, rate: number): Promise<Buffer> {
  const out = path.join(tempDir(), `speech-${rate}.raw`);
  await run('sox', [file, '-t', 'raw', '-r', String(rate), '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', out]);
  return fsp.readFile(out);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the audio as appends of `chunkMs` each, one every `chunkMs` (real time). */
async function stream(send: (audio: string) => void, pcm: Buffer, rate: number, chunkMs = 100): Promise<void> {
  const bytes = ((rate * chunkMs) / 1000) * 2;
  for (let at = 0; at < pcm.length; at += bytes) {
    send(pcm.subarray(at, at + bytes).toString('base64'));
    await sleep(chunkMs);
  }
}

const silence = (seconds: number, rate: number) => Buffer.alloc(Math.round(seconds * rate) * 2);

let server: TestServer;
let front: TlsFront;
let key: string;
let speech24k: Buffer;
let speech16k: Buffer;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
      KIKITORI_LIVE_MAX_SESSIONS_PER_KEY: '1',
      KIKITORI_LIVE_MAX_SESSIONS: '3',
    },
  });
  front = await startTlsFront(server.url);
  key = await server.key('acme');
  const wav = await synthesizeSpeech('the budget meeting moved to next week');
  [speech24k, speech16k] = await Promise.all([pcmAt(wav, 24000), pcmAt(wav, 16000)]);
});
afterAll(async () => {
  await front?.close();
  await server?.close();
});

/** The official client, unchanged but for trusting the test's certificate. */
function officialClient(apiKey: string): { rt: OpenAIRealtimeWS; inbox: Inbox; opened: Promise<void> } {
  const client = new OpenAI({ apiKey, baseURL: `${front.url}/v1` });
  const rt = new OpenAIRealtimeWS({ model: 'whisper-1', options: { ca: front.ca } }, client);
  const inbox = new Inbox();
  rt.on('event', (event) => inbox.push(event as Event));
  rt.on('error', () => undefined); // error events are asserted through the inbox
  const opened = new Promise<void>((resolve, reject) => {
    rt.socket.once('open', () => resolve());
    rt.socket.once('error', reject);
  });
  return { rt, inbox, opened };
}

/** A plain WebSocket to the server (no TLS), for hostile clients. */
function rawClient(headers: Record<string, string> = { authorization: `Bearer ${key}` }) {
  return realtimeClient(server.url, headers);
}

const live = () => liveTranscriptionsOf(server.runtime.ctx);

describe('the official OpenAIRealtimeWS client against /v1/realtime', () => {
  it('streams speech at real time: VAD turn events, deltas while speaking, then the completed transcript with word times', async () => {
    const { rt, inbox, opened } = officialClient(key);
    await opened;
    const created = await inbox.ofType('session.created');
    expect(created.session).toMatchObject({
      type: 'transcription',
      audio: { input: { format: { type: 'audio/pcm', rate: 24000 } } },
    });
    rt.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 24000 },
            transcription: { model: 'gpt-4o-transcribe', language: 'en' },
            turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
          },
        },
      },
    });
    await inbox.ofType('session.updated');
    const send = (audio: string) => rt.send({ type: 'input_audio_buffer.append', audio });
    const streamStart = performance.now();
    await stream(send, Buffer.concat([silence(0.5, 24000), speech24k, silence(1.5, 24000)]), 24000);
    const completed = await inbox.ofType('conversation.item.input_audio_transcription.completed');
    rt.close();
    if (process.env.KIKITORI_LIVE_FIGURES) {
      // Informal figures (never asserted): end of speech as the VAD placed it (speech_stopped less the
      // silence it waited for) -> completed, and speech start -> first delta, in ms of wall time.
      const at = (type: string) => inbox.arrivals[inbox.events.findIndex((e) => e.type === type)]!;
      const stopped = inbox.events.find((e) => e.type === 'input_audio_buffer.speech_stopped')!;
      const started = inbox.events.find((e) => e.type === 'input_audio_buffer.speech_started')!;
      console.log('live figures', {
        endOfSpeechToCompletedMs: Math.round(at(completed.type) - (streamStart + stopped.audio_end_ms - 500)),
        speechStartToFirstDeltaMs: Math.round(
          at('conversation.item.input_audio_transcription.delta') - (streamStart + started.audio_start_ms),
        ),
      });
    }

    const types = inbox.events.map((e) => e.type);
    const order = (type: string) => types.indexOf(type);
    expect(order('input_audio_buffer.speech_started')).toBeGreaterThan(-1);
    expect(order('input_audio_buffer.speech_started')).toBeLessThan(order('input_audio_buffer.speech_stopped'));
    expect(order('input_audio_buffer.speech_stopped')).toBeLessThan(order('input_audio_buffer.committed'));
    // Partial text arrived while the turn was still being heard, before its end was detected.
    const firstDelta = types.indexOf('conversation.item.input_audio_transcription.delta');
    expect(firstDelta).toBeGreaterThan(-1);
    expect(firstDelta).toBeLessThan(order('input_audio_buffer.speech_stopped'));
    const item = inbox.events.find((e) => e.type === 'input_audio_buffer.speech_started')!.item_id;
    expect(completed.item_id).toBe(item);
    expect(completed.transcript).toMatch(/budget/);
    expect(completed.transcript).toMatch(/meeting/);
    expect(completed.transcript).toMatch(/week/);
    expect(completed.usage).toMatchObject({ type: 'duration' });
    // Extension: the words with times in the session's audio (speech began after 0.5 s of silence).
    const words = completed.words as { word: string; start: number; end: number }[];
    expect(words.map((w) => w.word)).toContain('budget');
    expect(words[0]!.start).toBeGreaterThan(0.3);
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThan(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 0.001);
    }
    // The deltas only grow the text, and the completed transcript starts with what they said.
    const deltas = inbox.events.filter((e) => e.type === 'conversation.item.input_audio_transcription.delta');
    expect(deltas.every((d) => d.item_id === item)).toBe(true);
    expect(completed.transcript.startsWith(deltas.map((d) => d.delta).join(''))).toBe(true);
    await vi.waitFor(() => expect(live().active).toBe(0));
  });
});

afterEach(async () => {
  // Every test ends its sessions; the next one starts with none (per-key limit 1 on this server).
  await vi.waitFor(() => expect(live().active).toBe(0));
});

describe('extensions', () => {
  it("takes 16 kHz audio with turns committed by the client; the team dictionary's forced replacements and ad-hoc words apply live", async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'live' });
    const dictionaryId = dictionary.json.dictionary_id;
    const rule = await server.api(key, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, {
      pattern: 'budget meeting',
      replacement: 'Budget Review',
    });
    expect(rule.status).toBe(200);
    const { rt, inbox, opened } = officialClient(key);
    await opened;
    rt.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: null } },
        dictionary_id: dictionaryId,
        words: ['Kikitori', { word: 'Zintrix', reading: 'zin tricks' }],
      },
    } as never);
    const updated = await inbox.ofType('session.updated');
    expect(updated.session).toMatchObject({
      dictionary_id: dictionaryId,
      audio: { input: { format: { rate: 16000 }, turn_detection: null } },
    });
    await stream((audio) => rt.send({ type: 'input_audio_buffer.append', audio }), speech16k, 16000);
    rt.send({ type: 'input_audio_buffer.commit' });
    const completed = await inbox.ofType('conversation.item.input_audio_transcription.completed');
    rt.close();
    expect(completed.transcript).toMatch(/Budget Review/);
    expect(completed.words.map((w: { word: string }) => w.word)).toContain('Budget Review');
    const types = inbox.events.map((e) => e.type);
    expect(types).not.toContain('input_audio_buffer.speech_started');
    expect(types.indexOf('input_audio_buffer.committed')).toBeLessThan(
      types.indexOf('conversation.item.input_audio_transcription.completed'),
    );
    const deltas = inbox.events.filter((e) => e.type === 'conversation.item.input_audio_transcription.delta');
    expect(deltas.map((d) => d.delta).join('')).not.toMatch(/budget meeting/);
  });
});

describe('the input audio buffer', () => {
  it("clear drops the open turn's audio: a commit then finds nothing, and the next turn is transcribed", async () => {
    const client = rawClient();
    await opened(client);
    client.send({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: { input: { format: { type: 'audio/pcm', rate: 16000 }, turn_detection: null } },
      },
    });
    await client.inbox.ofType('session.updated');
    client.send({ type: 'input_audio_buffer.append', audio: speech16k.toString('base64') });
    client.send({ type: 'input_audio_buffer.clear' });
    await client.inbox.ofType('input_audio_buffer.cleared');
    client.send({ type: 'input_audio_buffer.commit', event_id: 'evt_after_clear' });
    const empty = await client.inbox.ofType('error');
    expect(empty.error).toMatchObject({ code: 'input_audio_buffer_commit_empty', event_id: 'evt_after_clear' });
    client.send({ type: 'input_audio_buffer.append', audio: speech16k.toString('base64') });
    client.send({ type: 'input_audio_buffer.commit' });
    const completed = await client.inbox.ofType('conversation.item.input_audio_transcription.completed');
    expect(completed.transcript).toMatch(/budget/);
    expect(client.inbox.events.filter((e) => e.type === 'input_audio_buffer.committed')).toHaveLength(1);
    client.socket.close();
  });
});

describe('save (extension)', () => {
  it("keeps the session's audio as a transcription of the team, run through the batch pipeline when the session ends", async () => {
    const client = rawClient();
    await opened(client);
    client.send({
      type: 'session.update',
      session: { type: 'transcription', save: true, audio: { input: { format: { type: 'audio/pcm', rate: 16000 } } } },
    });
    const updated = await client.inbox.ofType('session.updated');
    expect(updated.session).toMatchObject({ save: true, transcription_id: expect.any(String) });
    const id = updated.session.transcription_id as string;
    client.send({
      type: 'input_audio_buffer.append',
      audio: Buffer.concat([speech16k, silence(1, 16000)]).toString('base64'),
    });
    await client.inbox.ofType('conversation.item.input_audio_transcription.completed');
    const refused = await errorFor(client, { type: 'session.update', session: { type: 'transcription', save: false } });
    expect(refused.error).toMatchObject({ code: 'invalid_value', param: 'session.save' });
    client.socket.close();
    const done = await waitForStatus(server, key, id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
    const document = (await (await fetch(done.json.transcription_path as string)).json()) as { text: string };
    expect(document.text).toMatch(/budget/);
    // The session's recording in the work dir is gone once stored.
    expect((await fsp.readdir(path.join(server.dataDir, 'work'))).filter((f) => f.startsWith('live-'))).toEqual([]);
    // Another team cannot see it.
    const other = await server.api(await server.key('globex', 'eve'), 'GET', `/api/v1/transcriptions/${id}`);
    expect(other.status).toBe(404);
  });
});

/** The error event that answers a frame, and the proof the session still serves events after it. */
async function errorFor(client: ReturnType<typeof rawClient>, frame: unknown): Promise<Event> {
  const from = client.inbox.events.length;
  client.send(frame);
  return client.inbox.next((e) => e.type === 'error', from);
}

async function opened(client: ReturnType<typeof rawClient>): Promise<void> {
  await client.inbox.ofType('session.created');
}

describe('hostile clients', () => {
  it("refuses the upgrade without a key or with a wrong one: 401 in OpenAI's error body", async () => {
    for (const [headers, code] of [
      [{}, 'missing_api_key'],
      [{ authorization: 'Bearer kk_not_a_key' }, 'invalid_api_key'],
      [{ 'x-api-key': 'kk_not_a_key' }, 'invalid_api_key'],
    ] as const) {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/realtime?model=whisper-1`, { headers });
      socket.on('error', () => undefined);
      const response = await new Promise<{ status: number; body: any }>((resolve) =>
        socket.on('unexpected-response', (request, res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => {
            request.destroy();
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
          });
        }),
      );
      expect(response.status).toBe(401);
      expect(response.body.error).toMatchObject({ type: 'authentication_error', code, param: null });
    }
    expect(live().active).toBe(0);
  });

  it("answers a plain GET (no upgrade) with 400 in OpenAI's body, and documents the operation in /openapi.json", async () => {
    const response = await fetch(`${server.url}/v1/realtime?model=whisper-1`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: unknown }).error).toMatchObject({
      type: 'invalid_request_error',
      code: 'validation_failed',
    });
    const openapi = (await (await fetch(`${server.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(openapi.paths['/v1/realtime']).toHaveProperty('get');
  });

  it("answers every bad frame with an error event in OpenAI's shape and keeps the session", async () => {
    const client = rawClient();
    await opened(client);
    const cases: [unknown, string, string | null][] = [
      ['{"type": "session.update", ', 'invalid_json', null],
      ['[1, 2]', 'invalid_json', null],
      [{ event_id: 'evt_1' }, 'missing_required_parameter', 'type'],
      [{ type: 'response.create', event_id: 'evt_2' }, 'unsupported_event', 'type'],
      [{ type: 'input_audio_buffer.append', audio: '***not base64***' }, 'invalid_audio', 'audio'],
      [{ type: 'input_audio_buffer.append', audio: 'AA==' }, 'invalid_audio', 'audio'],
      [{ type: 'input_audio_buffer.append' }, 'missing_required_parameter', 'audio'],
      [{ type: 'input_audio_buffer.commit', event_id: 'evt_3' }, 'input_audio_buffer_commit_empty', null],
      [{ type: 'session.update', session: { type: 'realtime' } }, 'invalid_value', 'session.type'],
      [
        { type: 'session.update', session: { type: 'transcription', voice: 'alloy' } },
        'unknown_parameter',
        'session.voice',
      ],
      [
        {
          type: 'session.update',
          session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcm', rate: 8000 } } } },
        },
        'invalid_value',
        'session.audio.input.format.rate',
      ],
      [
        {
          type: 'session.update',
          session: { type: 'transcription', audio: { input: { format: { type: 'audio/pcmu' } } } },
        },
        'invalid_value',
        'session.audio.input.format.type',
      ],
      [
        {
          type: 'session.update',
          session: { type: 'transcription', audio: { input: { turn_detection: { type: 'semantic_vad' } } } },
        },
        'invalid_value',
        'session.audio.input.turn_detection.type',
      ],
      // An ad-hoc word's reading that is not text (readings that cannot be pronounced: "refuses ad-hoc words as dictionaries do").
      [
        { type: 'session.update', session: { type: 'transcription', words: [{ word: 'Zintrix', reading: 5 }] } },
        'invalid_value',
        'session.words.0.reading',
      ],
      [
        {
          type: 'session.update',
          event_id: 'evt_4',
          session: { type: 'transcription', audio: { input: { transcription: { language: 'ja' } } } },
        },
        'unsupported_language',
        'session.audio.input.transcription.language',
      ],
    ];
    for (const [frame, code, param] of cases) {
      const event = await errorFor(client, frame);
      expect(event, JSON.stringify(frame)).toMatchObject({
        type: 'error',
        event_id: expect.any(String),
        error: { type: 'invalid_request_error', code, param, message: expect.any(String) },
      });
      const sent = typeof frame === 'object' && frame !== null ? (frame as { event_id?: string }).event_id : undefined;
      expect(event.error.event_id).toBe(sent ?? null);
    }
    // A rejected update changed nothing.
    client.send({ type: 'session.update', session: { type: 'transcription' } });
    const updated = await client.inbox.ofType('session.updated');
    expect(updated.session.audio.input).toMatchObject({ format: { rate: 24000 }, transcription: { language: 'en' } });
    client.socket.close();
    expect((await client.closed).code).toBe(1005);
  });

  it('refuses ad-hoc words as dictionaries do: readings that cannot be pronounced, blank words, oversized lists', async () => {
    const client = rawClient();
    await opened(client);
    const update = (words: unknown[]) => ({ type: 'session.update', session: { type: 'transcription', words } });
    const cases: [unknown[], string][] = [
      [[{ word: 'Zintrix', reading: '<script>alert(1)</script>' }], 'session.words.0.reading'],
      [['Kikitori', { word: 'Zintrix', reading: '1234' }], 'session.words.1.reading'],
      [[{ word: 'Zintrix', reading: '!!! ???' }], 'session.words.0.reading'],
      [[{ word: 'Zintrix', reading: 'zin\u0000tricks' }], 'session.words.0.reading'],
      [['   '], 'session.words.0'],
      [[{ word: 'Zintrix', reading: 'a'.repeat(LIMITS.reading + 1) }], 'session.words.0'],
      [Array.from({ length: 201 }, (_, i) => `word${i}`), 'session.words'],
    ];
    for (const [words, param] of cases) {
      const event = await errorFor(client, update(words));
      expect(event.error, JSON.stringify(words).slice(0, 80)).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_value',
        message: expect.any(String),
      });
      expect(event.error.param, JSON.stringify(words).slice(0, 80)).toMatch(
        new RegExp(`^${param.replace(/\./g, '\\.')}`),
      );
    }
    // The same message as the dictionaries' HTTP answer: one check.
    const refused = await errorFor(client, update([{ word: 'Zintrix', reading: '1234' }]));
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', {
      name: 'readings',
      words: [{ word: 'Zintrix', reading: '1234' }],
    });
    expect(dictionary.status).toBe(400);
    expect(dictionary.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'words.0.reading' });
    expect(refused.error.message).toBe(dictionary.json.error_message);
    // Readings in letters or kana, with spaces, hyphens and apostrophes, are taken.
    client.send(
      update([
        'Kikitori',
        { word: 'Zintrix', reading: "zin-tricks o'clock" },
        { word: '聞き取り', reading: 'ききとり' },
      ]),
    );
    const updated = await client.inbox.ofType('session.updated');
    expect(updated.session.words).toHaveLength(3);
    client.socket.close();
  });

  it('answers a frame over the size limit with an error event, and closes only beyond four times the limit', async () => {
    const client = rawClient();
    await opened(client);
    const limit = server.runtime.ctx.config.live.maxFrameBytes;
    const big = JSON.stringify({ type: 'input_audio_buffer.append', audio: 'A'.repeat(limit + 4) });
    const event = await errorFor(client, big);
    expect(event.error).toMatchObject({ type: 'invalid_request_error', code: 'frame_too_large' });
    expect((await errorFor(client, { type: 'input_audio_buffer.commit' })).error.code).toBe(
      'input_audio_buffer_commit_empty',
    );
    client.send('x'.repeat(limit * 4 + 1));
    expect((await client.closed).code).toBe(1009);
  });

  it("keeps another team's dictionary out of a session", async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'acme only' });
    const client = rawClient({ authorization: `Bearer ${await server.key('globex', 'mallory')}` });
    await opened(client);
    const event = await errorFor(client, {
      type: 'session.update',
      event_id: 'evt_steal',
      session: { type: 'transcription', dictionary_id: dictionary.json.dictionary_id },
    });
    expect(event.error).toMatchObject({
      code: 'dictionary_not_found',
      param: 'session.dictionary_id',
      event_id: 'evt_steal',
    });
    client.socket.close();
  });

  it('refuses sessions beyond the per-key and per-server limits with an error event and close code 1013', async () => {
    const first = rawClient();
    await opened(first);
    const second = rawClient();
    const refused = await second.inbox.ofType('error');
    expect(refused.error).toMatchObject({ type: 'rate_limit_error', code: 'too_many_sessions' });
    expect((await second.closed).code).toBe(1013);
    // Per server (3): two more keys fill it, a fourth session is refused.
    const others = [
      rawClient({ 'x-api-key': await server.key('acme', 'bob') }),
      rawClient({ 'x-api-key': await server.key('acme', 'carol') }),
    ];
    await Promise.all(others.map(opened));
    const fourth = rawClient({ 'x-api-key': await server.key('acme', 'dave') });
    expect((await fourth.inbox.ofType('error')).error.code).toBe('too_many_sessions');
    expect((await fourth.closed).code).toBe(1013);
    for (const c of [first, ...others]) c.socket.close();
  });

  it('drops audio sent far faster than it can be heard, with an audio_backlog error, and keeps the session', async () => {
    const client = rawClient();
    await opened(client);
    // Speech, then 30 s of silence at once: the server hears it at its own pace and refuses what goes beyond its backlog.
    client.send({ type: 'input_audio_buffer.append', audio: speech24k.toString('base64') });
    const pause = silence(3, 24000).toString('base64');
    for (let i = 0; i < 10; i++) client.send({ type: 'input_audio_buffer.append', event_id: `evt_${i}`, audio: pause });
    const event = await client.inbox.next((e) => e.type === 'error');
    expect(event.error).toMatchObject({ type: 'rate_limit_error', code: 'audio_backlog', param: 'audio' });
    expect(event.error.event_id).toMatch(/^evt_\d$/);
    // What was accepted is still transcribed.
    const completed = await client.inbox.ofType('conversation.item.input_audio_transcription.completed');
    expect(completed.transcript).toMatch(/budget/);
    client.socket.close();
  });

  it('frees the session and its decoder when the client disconnects mid-turn', async () => {
    const engine = server.runtime.ctx.engines.speechEngines.get('pocketsphinx') as PocketsphinxEngine;
    const warm = engine.warmDecoders;
    const client = rawClient();
    await opened(client);
    const half = speech24k.subarray(0, Math.floor(speech24k.length / 4) * 2);
    await stream(
      (audio) => client.send({ type: 'input_audio_buffer.append', audio }),
      Buffer.concat([silence(0.3, 24000), half]),
      24000,
      100,
    );
    await client.inbox.ofType('input_audio_buffer.speech_started');
    client.socket.terminate();
    await vi.waitFor(() => expect(live().active).toBe(0));
    // The decoder the session held, mid-utterance, is back in the pool: a dirty one is replaced by a decoder
    // built in the background, which takes seconds on a loaded machine (vi.waitFor's default bound is 1 s).
    await vi.waitFor(() => expect(engine.warmDecoders).toBe(Math.max(warm, 1)), { timeout: 60_000, interval: 100 });
    // The key's one place is free again, and the next session transcribes from a clean decoder.
    const next = rawClient();
    await opened(next);
    await stream(
      (audio) => next.send({ type: 'input_audio_buffer.append', audio }),
      Buffer.concat([speech24k, silence(1.5, 24000)]),
      24000,
      100,
    );
    const completed = await next.inbox.ofType('conversation.item.input_audio_transcription.completed');
    expect(completed.transcript).toMatch(/budget/);
    next.socket.close();
  });
});

describe('session ends decided by the server', () => {
  let spare: TestServer;
  beforeAll(async () => {
    spare = await startTestServer({
      env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx', KIKITORI_LIVE_IDLE_TIMEOUT: '1' },
    });
  });
  afterAll(() => spare?.close());
  const connect = async () => {
    const client = realtimeClient(spare.url, { authorization: `Bearer ${await spare.key('acme')}` });
    await client.inbox.ofType('session.created');
    return client;
  };

  it('ends an idle session with an idle_timeout error event', async () => {
    const { inbox, closed } = await connect();
    const event = await inbox.ofType('error');
    expect(event.error).toMatchObject({ type: 'invalid_request_error', code: 'idle_timeout' });
    expect((await closed).code).toBe(1000);
    await vi.waitFor(() => expect(liveTranscriptionsOf(spare.runtime.ctx).active).toBe(0));
  });

  it('ends open sessions cleanly when the server shuts down: an error event, then close code 1001', async () => {
    const { socket, inbox, closed } = await connect();
    socket.send(
      JSON.stringify({ type: 'input_audio_buffer.append', audio: speech24k.subarray(0, 48000).toString('base64') }),
    );
    await spare.runtime.close();
    const event = await inbox.ofType('error');
    expect(event.error).toMatchObject({ type: 'server_error', code: 'server_shutting_down' });
    expect((await closed).code).toBe(1001);
    expect(liveTranscriptionsOf(spare.runtime.ctx).active).toBe(0);
  });
});
