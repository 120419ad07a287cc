// whisper in the transcription pipeline over real HTTP, treated like every other engine: the dictionary's
// words, speaker separation (num_speakers) and forced replacements. The model is a generated one with
// random weights (test/support/ggml-model.ts): it recognizes no words, but it is deterministic, so the
// test reads which made-up words it produced, then makes one of them a forced replacement and checks
// that the next run of the same audio carries the replacement. Structure is asserted, never words.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let dialogue: string;

beforeAll(async () => {
  const model = await randomWhisperModel();
  server = await startTestServer({
    env: { KIKITORI_ENGINE_DEFAULT: 'whisper', KIKITORI_WHISPER_MODEL: model, KIKITORI_WHISPER_THREADS: '1' },
  });
  key = await server.key('acme');
  // Two clearly different voices taking turns: festival's female HTS voice and espeak-ng's male voice.
  const parts = await Promise.all([
    synthesizeSpeech('the quarterly numbers look strong this time', undefined, { voice: 'festival' }),
    synthesizeSpeech('i agree and the costs went down as well', undefined, { voice: 'espeak' }),
    synthesizeSpeech('then we should hire two more engineers', undefined, { voice: 'festival' }),
    synthesizeSpeech('let us talk about that next week', undefined, { voice: 'espeak' }),
  ]);
  dialogue = path.join(tempDir(), 'dialogue.wav');
  fs.copyFileSync(await concatWithSilence(parts, 1), dialogue);
});
afterAll(() => server.close());

async function transcribe(dictionaryId: string): Promise<{ record: any; document: TranscriptDocument }> {
  const ticket = await uploadFile(server, key, dialogue, {
    language: 'en',
    num_speakers: '2',
    dictionary_id: dictionaryId,
  });
  const started = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  expect(started.status).toBe(200);
  const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
  expect(done.json.status, done.json.failure_reason).toBe('COMPLETED');
  return {
    record: done.json,
    document: (await (await fetch(done.json.transcription_path)).json()) as TranscriptDocument,
  };
}

const bare = (word: string) => word.toLowerCase().replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');

describe('whisper in the transcription pipeline', () => {
  it('gets vocabulary, speaker separation and forced replacements like every engine', async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', {
      name: 'Team',
      words: [{ word: 'Kikitori' }],
    });
    expect(dictionary.status).toBe(200);
    const dictionaryId = dictionary.json.dictionary_id as string;

    const first = await transcribe(dictionaryId);
    expect(first.record.engine).toMatch(/^whisper\/whisper\.cpp\/random-.*\+embedded-mfcc$/);
    expect(first.document.engine).toMatchObject({ name: 'whisper', speakers: 'embedded-mfcc' });
    expect(first.document.segments.length).toBeGreaterThan(0);
    // Every segment has a speaker, of at most the two asked for; words are ordered and inside the file.
    const speakers = new Set(first.document.segments.map((s) => s.speaker));
    expect(speakers.has(null)).toBe(false);
    expect(speakers.size).toBeGreaterThanOrEqual(1);
    expect(speakers.size).toBeLessThanOrEqual(2);
    let last = 0;
    for (const segment of first.document.segments) {
      expect(segment.words.length).toBeGreaterThan(0);
      for (const word of segment.words) {
        expect(word.start).toBeGreaterThanOrEqual(last - 1e-6);
        expect(word.end).toBeGreaterThanOrEqual(word.start);
        expect(word.end).toBeLessThanOrEqual(first.document.duration + 0.01);
        last = word.end;
      }
    }
    expect(first.document.replacements).toEqual([]);
    // Each job logged its stage timings.
    const timings = server.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'transcription timings');
    expect(timings.at(-1)).toMatchObject({
      outcome: 'completed',
      timings: {
        decode: expect.any(Number),
        recognize: expect.any(Number),
        'recognize.vad': expect.any(Number),
        speakers: expect.any(Number),
        total: expect.any(Number),
      },
    });
    // A small upload is decoded without a separate probe: one ffmpeg start instead of two.
    expect(timings.at(-1).timings.probe).toBeUndefined();

    // A word whisper produced becomes a forced replacement: the same audio again carries the replacement.
    const target = first.document.segments
      .flatMap((s) => s.words)
      .map((w) => bare(w.word))
      .find((w) => /^[a-z]{3,}$/.test(w));
    expect(target).toBeDefined();
    const rule = await server.api(key, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, {
      pattern: target,
      replacement: 'Zintrix',
    });
    expect(rule.status).toBe(200);
    const second = await transcribe(dictionaryId);
    const occurrences = first.document.segments.flatMap((s) => s.words).filter((w) => bare(w.word) === target).length;
    expect(second.document.replacements).toEqual([
      { pattern: target, replacement: 'Zintrix', count: occurrences, segment_ids: expect.any(Array) },
    ]);
    expect(second.document.text).toContain('Zintrix');
    expect(second.document.segments.flatMap((s) => s.words).some((w) => bare(w.word) === target)).toBe(false);
  });
});
