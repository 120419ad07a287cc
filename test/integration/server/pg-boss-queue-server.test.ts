// The server with KIKITORI_DATABASE_URL runs its jobs on pg-boss (decision 0031): a transcription and an
// OpenAI-route request go through pgboss.job in that database to COMPLETED and to an answer, real speech
// through the default engine; a refused language still answers the route's status with its field.
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { postTranscription, startOpenAiTestServer } from '../../support/openai-test-server.js';
import { testDatabase } from '../../support/postgres.js';
import type { TestServer } from '../../support/test-server.js';

let server: TestServer;
let db: pg.Client;
let key: string;
let speech: string;

beforeAll(async () => {
  const url = await testDatabase('kikitori_server');
  server = await startOpenAiTestServer({ env: { KIKITORI_DATABASE_URL: url } });
  db = new pg.Client({ connectionString: url });
  await db.connect();
  key = await server.key('acme');
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(async () => {
  await server?.close();
  await db?.end();
});

describe('the server on a PostgreSQL job queue', () => {
  it('transcribes an upload through a pg-boss job, one per transcription', async () => {
    const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: 'speech.wav' });
    const id = ticket.json.transcription_id as string;
    expect((await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(speech) })).status).toBe(
      200,
    );
    expect((await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`)).status).toBe(200);
    await expect
      .poll(async () => (await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.status, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe('COMPLETED');
    // The record is COMPLETED inside the job; pg-boss marks the job itself completed just after it returns.
    await expect
      .poll(
        async () =>
          (await db.query(`SELECT name, state FROM pgboss.job WHERE singleton_key = $1`, [`transcribe:${id}`])).rows,
        { timeout: 30_000, interval: 100 },
      )
      .toEqual([{ name: 'transcribe', state: 'completed' }]);
  });

  it('answers /v1/audio/transcriptions from the job, and an engine refusal with its status and field', async () => {
    const ok = await postTranscription(server, key, speech, { model: 'whisper-1' });
    expect(ok.status).toBe(200);
    expect(ok.json.text).toMatch(/budget/);
    const refused = await postTranscription(server, key, speech, { model: 'whisper-1', language: 'xx' });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ param: 'language' });
    const { rows } = await db.query(
      `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'openai-transcribe' GROUP BY state ORDER BY state`,
    );
    expect(rows.find((r: { state: string }) => r.state === 'completed')).toMatchObject({ n: 1 });
  });
});
