// No silent wrong language (issue 27, decision 0070), over real HTTP with the built-in recognizer:
// speech in another language transcribed as English comes back with a LANGUAGE_MISMATCH warning; English
// speech comes back with none. The other language is Finnish read by espeak-ng as bench:asr reads it: the
// built-in check is tuned to almost never flag English, and flags few recordings (bench:asr, language
// part); most espeak-ng Spanish it does not flag (see decision 0070).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;

const FINNISH =
  'Hän osti viime viikolla uuden auton ja ajoi sillä rannalle. Tiimimme sai projektin valmiiksi kaksi päivää etuajassa.';
const ENGLISH = [
  'We will meet at the office after lunch to review the budget.',
  'Please remember to lock the door when you leave the house.',
  'The weather forecast says it will rain tomorrow afternoon.',
  'Our team finished the project two days ahead of schedule.',
];

async function speech(sentences: string[], options: Parameters<typeof synthesizeSpeech>[2], name: string) {
  const parts = await Promise.all(sentences.map((s) => synthesizeSpeech(s, undefined, options)));
  const file = path.join(tempDir(), name);
  fs.copyFileSync(await concatWithSilence(parts, 0.6), file);
  return file;
}

async function transcribedAsEnglish(file: string) {
  const ticket = await uploadFile(server, key, file, { language: 'en' });
  const started = await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  expect(started.status).toBe(200);
  const done = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
  expect(done.failure_reason).toBeNull();
  expect(done.status).toBe('COMPLETED');
  return done;
}

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice', ['DELETE']);
});
afterAll(() => server.close());

describe('language check', () => {
  it('warns that Finnish speech transcribed as English is most likely not English', async () => {
    const done = await transcribedAsEnglish(
      await speech([FINNISH], { voice: 'espeak', espeakVoice: 'fi+m7', espeakSpeed: 165 }, 'fi.wav'),
    );
    expect(done.warnings).toEqual([
      {
        code: 'LANGUAGE_MISMATCH',
        message: expect.stringContaining('may not be in English'),
        likely_language: null,
      },
    ]);
    // The list says it too (the app's library reads the list).
    const list = await server.api(key, 'GET', '/api/v1/transcriptions');
    const row = list.json.find((t: { transcription_id: string }) => t.transcription_id === done.transcription_id);
    expect(row.warnings).toEqual(done.warnings);
  });

  it('gives English speech no warning, in a synthetic voice and in festival', async () => {
    for (const [options, name] of [
      [{ voice: 'espeak' }, 'en-espeak.wav'],
      [{ voice: 'festival' }, 'en-festival.wav'],
    ] as const) {
      const done = await transcribedAsEnglish(await speech(ENGLISH, options, name));
      expect(done.warnings).toEqual([]);
    }
  });

  it('shows no warnings on a transcription that has not run', async () => {
    const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: 'early.wav' });
    const got = await server.api(key, 'GET', `/api/v1/transcriptions/${ticket.json.transcription_id}`);
    expect(got.json.warnings).toEqual([]);
  });
});
