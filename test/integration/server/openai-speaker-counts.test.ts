// The OpenAI route takes num_speakers, min_speakers and max_speakers under the one speaker-count rule
// (src-shared/speaker-count.ts, LIMITS' bounds), as the spec's upload does: it once capped them at 20
// by hand and let min_speakers pass above max_speakers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src-shared/limits.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { postTranscription, startOpenAiTestServer } from '../../support/openai-test-server.js';
import type { TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let speech: string;

beforeAll(async () => {
  server = await startOpenAiTestServer();
  key = await server.key('acme');
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => server.close());

describe('speaker counts on POST /v1/audio/transcriptions', () => {
  it("refuses min_speakers above max_speakers, naming the field in OpenAI's error body", async () => {
    const response = await postTranscription(server, key, speech, {
      model: 'whisper-1',
      min_speakers: '5',
      max_speakers: '2',
    });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ type: 'invalid_request_error', param: 'min_speakers' });
    expect(response.json.error.message).toBe('min_speakers (5) must not be greater than max_speakers (2).');
  });

  it('refuses num_speakers outside min_speakers..max_speakers', async () => {
    const response = await postTranscription(server, key, speech, {
      model: 'whisper-1',
      num_speakers: '6',
      min_speakers: '2',
      max_speakers: '4',
    });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ param: 'num_speakers' });
  });

  it(`takes counts up to LIMITS' maximum (${LIMITS.speakers.max}) and refuses one past it`, async () => {
    const past = await postTranscription(server, key, speech, {
      model: 'whisper-1',
      max_speakers: String(LIMITS.speakers.max + 1),
    });
    expect(past.status).toBe(400);
    expect(past.json.error).toMatchObject({ param: 'max_speakers' });
    expect(past.json.error.message).toBe(
      `max_speakers must be a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}; got ${LIMITS.speakers.max + 1}.`,
    );
    for (const bad of ['0', '2.5', 'two']) {
      const response = await postTranscription(server, key, speech, { model: 'whisper-1', num_speakers: bad });
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({ param: 'num_speakers' });
    }

    const most = await postTranscription(server, key, speech, {
      model: 'whisper-1',
      language: 'en',
      max_speakers: String(LIMITS.speakers.max),
      response_format: 'verbose_json',
    });
    expect(most.status).toBe(200);
    expect(most.json.text).toMatch(/budget/);
    expect(most.json.engine.speakers).toBeTruthy();
  });
});
