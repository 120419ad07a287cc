// GET /review with If-None-Match (decision 0056): an app following an open transcript asks every few seconds
// whether a newer revision exists, and naming the revision it holds gets 304 without a body. Real speech, the
// run's backend (SQLite and files, or PostgreSQL and S3), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import {
  startTestServer,
  transcribeFile,
  toApiResponse,
  type ApiResponse,
  type TestServer,
} from '../../support/test-server.js';

let server: TestServer;
let alice: string;
let bob: string;
let stranger: string;
let id: string;

const review = (key: string, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  fetch(`${server.url}/api/v1/transcriptions/${id}/review`, { headers: { 'x-api-key': key, ...headers } }).then(
    toApiResponse,
  );

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.key('acme', 'alice');
  bob = await server.key('acme', 'bob');
  stranger = await server.key('globex', 'mallory');
  id = await transcribeFile(server, alice, await synthesizeSpeech('the budget meeting is on friday'), {
    language: 'en',
  });
});
afterAll(() => server.close());

describe('GET /review with If-None-Match', () => {
  it('answers 404 while the transcript is as recognized, whatever the header names', async () => {
    for (const tag of ['"1"', '*']) {
      const answer = await review(alice, { 'if-none-match': tag });
      expect(answer.status).toBe(404);
      expect(answer.json.error_code).toBe(ErrorCode.REVIEW_NOT_FOUND);
    }
  });

  it('answers 304 without a body when the latest revision is named, and the text once a teammate moved it on', async () => {
    const recognized = (await server.api(alice, 'GET', `/api/v1/transcriptions/${id}/revisions/1`)).json
      .document as TranscriptDocument;
    const lines = recognized.segments.map((s, i) => (i === 0 ? 'alice corrected this' : s.text));
    const saved = await server.api(alice, 'POST', `/api/v1/transcriptions/${id}/review`, {
      reviewed_text: lines.join('\n'),
    });
    expect(saved.headers.get('etag')).toBe('"2"');

    for (const tag of ['"2"', 'W/"2"', '"1", "2"', '*', 'junk, "2"']) {
      const answer = await review(bob, { 'if-none-match': tag });
      expect([tag, answer.status, answer.text, answer.headers.get('etag')]).toEqual([tag, 304, '', '"2"']);
    }
    for (const tag of ['"1"', '"3"', 'junk', '2', '"02"']) {
      const answer = await review(bob, { 'if-none-match': tag });
      expect([tag, answer.status, answer.headers.get('etag')]).toEqual([tag, 200, '"2"']);
      expect(answer.json.reviewed_text.split('\n')[0]).toBe('alice corrected this');
    }

    const edited = await server.api(bob, 'POST', `/api/v1/transcriptions/${id}/revisions`, {
      base_revision: 2,
      operations: [{ kind: 'text', segmentId: recognized.segments[0]!.id, text: 'bob corrected that' }],
    });
    expect(edited.status).toBe(200);
    const moved = await review(alice, { 'if-none-match': '"2"' });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).toBe('"3"');
    expect(moved.json.reviewed_text.split('\n')[0]).toBe('bob corrected that');
  });

  it("answers another team's transcript as unknown, never 304, and refuses an oversized header", async () => {
    for (const tag of ['"2"', '"3"', '*']) {
      const answer = await review(stranger, { 'if-none-match': tag });
      expect([tag, answer.status, answer.json?.error_code]).toEqual([tag, 404, ErrorCode.TRANSCRIPTION_NOT_FOUND]);
    }
    const oversized = await review(alice, {
      'if-none-match': Array.from({ length: 40 }, (_, i) => `"${i + 1}"`).join(', '),
    });
    expect(oversized.status).toBe(400);
    expect(oversized.json).toMatchObject({
      error_id: expect.any(String),
      error_code: ErrorCode.VALIDATION_FAILED,
      error_message: expect.stringMatching(/if-none-match/),
    });
  });

  it('is in the OpenAPI document', async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    const get = doc.paths['/api/v1/transcriptions/{transcription_id}/review'].get;
    expect(Object.keys(get.responses)).toContain('304');
    expect(get.parameters.map((p: { name: string }) => p.name)).toContain('if-none-match');
  });
});
