// A running transcription says when its processing started and which stage it is in, over real HTTP; once
// it ended, the start time stays and the stage is null. Recognition is not what is tested: a scripted
// engine holds it until the test has seen the running state, and everything around it (upload, decoding,
// queue, replacements, storage) is real.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPTION_STAGES } from '../../../src-shared/api/vocabulary.js';
import { makeCorruptFile, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { ScriptedSpeechEngine, scriptedEngineRegistry } from '../../support/scripted-speech-engine.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

const SENTENCE = 'we will review the quarterly numbers on monday morning';
const engine = new ScriptedSpeechEngine();
let server: TestServer;
let key: string;
let meeting: string;

beforeAll(async () => {
  // Polled every 50 ms to see each stage: more than the default per-key budget (limits.test.ts covers that).
  server = await startTestServer({
    env: { KIKITORI_RATE_LIMIT_PER_KEY: '0' },
    runtime: { engines: scriptedEngineRegistry(engine) },
  });
  key = await server.key('acme', 'alice');
  meeting = await synthesizeSpeech(SENTENCE);
}, 120_000);
afterAll(() => server.close());

const get = async (id: string) => (await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json;

describe('processing_started_at and stage', () => {
  it('are null until processing starts, then say when it started and what it is doing', async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Numbers' });
    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionary.json.dictionary_id}/blacklist_words`, {
      pattern: 'quarterly',
      replacement: 'Q3',
    });
    const ticket = await uploadFile(server, key, meeting, {
      language: 'en',
      dictionary_id: dictionary.json.dictionary_id,
    });
    const id = ticket.transcription_id;

    const uploaded = await get(id);
    expect(uploaded.processing_started_at).toBeNull();
    expect(uploaded.stage).toBeNull();

    const before = Date.now();
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`)).status).toBe(200);

    // One job at a time (the default): another one started now waits for the worker, and says so.
    const corrupt = await makeCorruptFile(path.join(tempDir(), 'waits.wav'));
    const waiting = await uploadFile(server, key, corrupt);
    expect(
      (await server.api(key, 'POST', `/api/v1/transcriptions/${waiting.transcription_id}/transcribe`)).status,
    ).toBe(200);
    expect(await get(waiting.transcription_id)).toMatchObject({
      status: 'CONVERTING',
      stage: 'queued',
      processing_started_at: null,
    });

    // Watch it run: every stage seen is in the vocabulary, in pipeline order, under one start time. The
    // recognition is held until it has been seen, then ends with the words said.
    const recognition = await engine.nextRun();
    recognition.progress(0.5);
    const seen: string[] = [];
    const starts = new Set<string>();
    let record = await get(id);
    let recognized = false;
    while (record.status === 'CONVERTING' || record.status === 'IN_PROGRESS') {
      if (record.stage !== null) {
        if (seen.at(-1) !== record.stage) seen.push(record.stage);
        // Waiting for the worker, it has no start time yet.
        if (record.stage !== 'queued') starts.add(record.processing_started_at);
      }
      if (record.stage === 'recognizing' && !recognized) {
        recognized = true;
        recognition.finish([{ text: SENTENCE, start: 0.2, end: 3 }]);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      record = await get(id);
    }
    expect(record.status).toBe('COMPLETED');
    // The stages after recognition ran: the dictionary's rule rewrote the words the engine gave.
    const transcript = await fetch(record.transcription_path as string);
    expect(((await transcript.json()) as { text: string }).text).toBe(SENTENCE.replace('quarterly', 'Q3'));
    expect(seen).toContain('recognizing');
    const order = seen.map((stage) => TRANSCRIPTION_STAGES.indexOf(stage as (typeof TRANSCRIPTION_STAGES)[number]));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(starts.size).toBe(1);
    const [startedAt] = [...starts];
    expect(Date.parse(startedAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(startedAt!)).toBeLessThanOrEqual(Date.parse(record.updated_at));

    // Ended: the start time stays (how long it took is updated_at - processing_started_at); no stage.
    expect(record.processing_started_at).toBe(startedAt);
    expect(record.stage).toBeNull();
    expect(record.progress).toBe(1);
    const listed = (await server.api(key, 'GET', '/api/v1/transcriptions')).json as Array<{ transcription_id: string }>;
    expect(listed.find((t) => t.transcription_id === id)).toMatchObject({
      processing_started_at: startedAt,
      stage: null,
    });
  }, 300_000);

  it('a failed transcription keeps its start time and has no stage', async () => {
    const corrupt = await makeCorruptFile(path.join(tempDir(), 'not-audio.wav'));
    const ticket = await uploadFile(server, key, corrupt);
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`)).status).toBe(
      200,
    );
    const failed = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
    expect(failed.status).toBe('FAILED');
    expect(failed.stage).toBeNull();
    expect(Date.parse(failed.processing_started_at)).toBeLessThanOrEqual(Date.parse(failed.updated_at));
  }, 120_000);
});
