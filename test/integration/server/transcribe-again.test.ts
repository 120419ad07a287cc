// Transcribe again, in place, over real HTTP (issue 27, decision 0062): real speech, pocketsphinx, and the
// run's backend (SQLite and files, or PostgreSQL and S3). POST /transcribe with a body of options on a
// finished transcription runs it again from the stored audio; the result is the next revision (source
// "transcribed-again", its author the caller), and the edits made before stay in the history.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import {
  rawRequest,
  startTestServer,
  transcribeFile,
  uploadFile,
  waitForStatus,
  type TestServer,
} from '../../support/test-server.js';

let server: TestServer;
let alice: string;
let bob: string;
let stranger: string;
let speech: string;

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.key('acme', 'alice');
  bob = await server.key('acme', 'bob');
  stranger = await server.key('globex', 'mallory');
  speech = await synthesizeSpeech('the budget meeting moved to next week please send the report by friday');
});
afterAll(() => server.close());

const base = (id: string) => `/api/v1/transcriptions/${id}`;

/** A POST with a raw body or headers the test server's helper does not send. */
const call = (key: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
  rawRequest(server, key, 'POST', route, body, headers);

const transcribed = (body: Record<string, unknown> = {}) =>
  transcribeFile(server, alice, speech, { language: 'en', ...body });

const servedDocument = async (id: string): Promise<TranscriptDocument> => {
  const record = await server.api(alice, 'GET', base(id));
  const response = await fetch(`${record.json.transcription_path}&format=json`);
  expect(response.status).toBe(200);
  return (await response.json()) as TranscriptDocument;
};

const history = async (id: string) => {
  const list = await server.api(alice, 'GET', `${base(id)}/revisions`);
  expect(list.status).toBe(200);
  return list.json as {
    latest_revision: number;
    revisions: Array<{ revision: number; source: string; author: { name: string } }>;
  };
};

describe('a finished transcription transcribed again with other options', () => {
  it('runs again from the stored audio; the result is the next revision and the earlier edit stays in the history', async () => {
    const id = await transcribed();
    const recognized = await servedDocument(id);
    expect(recognized.text).toMatch(/budget/i);
    const segment = recognized.segments[0]!;
    const edited = await call(alice, `${base(id)}/revisions`, {
      base_revision: 1,
      operations: [{ kind: 'text', segmentId: segment.id, text: 'Alice edited this line' }],
    });
    expect(edited.status).toBe(200);

    // A dictionary whose forced replacement only a new recognition applies, and one speaker.
    const dictionary = (await server.api(bob, 'POST', '/api/v1/dictionaries', { name: 'Again' })).json
      .dictionary_id as string;
    await server.api(bob, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    const again = await call(bob, `${base(id)}/transcribe`, { dictionary_id: dictionary, num_speakers: 1 });
    expect(again.status).toBe(200);
    expect(['CONVERTING', 'IN_PROGRESS', 'COMPLETED']).toContain(again.json.status);
    expect(again.json).toMatchObject({ dictionary_id: dictionary, num_speakers: 1 });

    const done = (await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json;
    expect(done.status).toBe('COMPLETED');
    const document = await servedDocument(id);
    expect(document.revision).toBe(3);
    expect(document.text).toContain('Q3 budget');
    expect(document.text).not.toContain('Alice edited this line');
    expect(new Set(document.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1']));

    const list = await history(id);
    expect(list.latest_revision).toBe(3);
    expect(list.revisions.map((r) => r.source)).toEqual(['recognized', 'edit', 'transcribed-again']);
    expect(list.revisions[2]!.author.name).toBe('bob name');
    // The edit is still there, at its revision.
    const before = await server.api(alice, 'GET', `${base(id)}/revisions/2`);
    expect(before.status).toBe(200);
    expect((before.json.document as TranscriptDocument).text).toContain('Alice edited this line');
  });

  it('without a body answers 409 as before, and an empty body keeps the options', async () => {
    const id = await transcribed();
    const bare = await call(alice, `${base(id)}/transcribe`);
    expect(bare.status).toBe(409);
    expect(bare.json.error_code).toBe(ErrorCode.TRANSCRIPTION_ALREADY_ENDED);

    const again = await call(alice, `${base(id)}/transcribe`, {});
    expect(again.status).toBe(200);
    expect(again.json.language).toEqual(['en']);
    expect((await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json.status).toBe('COMPLETED');
    expect((await history(id)).revisions.map((r) => r.source)).toEqual(['recognized', 'transcribed-again']);
  });

  it('two requests at once: one runs it, the other is told it is running (409)', async () => {
    const id = await transcribed();
    const answers = await Promise.all([
      call(alice, `${base(id)}/transcribe`, { num_speakers: 1 }),
      call(bob, `${base(id)}/transcribe`, { num_speakers: 2 }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.json.error_code).toBe(ErrorCode.TRANSCRIPTION_RUNNING);
    expect(typeof refused.json.error_id).toBe('string');
    expect((await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json.status).toBe('COMPLETED');
    expect((await history(id)).revisions).toHaveLength(2);
  });

  it('If-Match naming an older revision is refused with 412 and nothing runs', async () => {
    const id = await transcribed();
    const stale = await call(alice, `${base(id)}/transcribe`, {}, { 'if-match': '"2"' });
    expect(stale.status).toBe(412);
    expect(stale.json.error_code).toBe(ErrorCode.REVISION_CONFLICT);
    expect((await server.api(alice, 'GET', base(id))).json.status).toBe('COMPLETED');
    const current = await call(alice, `${base(id)}/transcribe`, {}, { 'if-match': '"1"' });
    expect(current.status).toBe(200);
    expect((await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json.status).toBe('COMPLETED');
  });
});

describe('a FAILED transcription transcribed again', () => {
  it('is accepted and runs again from its stored audio, with no revision made when it never had a transcript', async () => {
    const notAudio = path.join(os.tmpdir(), `not-audio-${process.pid}.wav`);
    fs.writeFileSync(notAudio, 'these are meeting notes, not a recording\n'.repeat(50));
    const ticket = await uploadFile(server, alice, notAudio, { language: 'en' });
    const id = ticket.transcription_id;
    await server.api(alice, 'POST', `${base(id)}/transcribe`);
    expect((await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json.status).toBe('FAILED');

    const again = await call(bob, `${base(id)}/transcribe`, { num_speakers: 1 });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ num_speakers: 1, failure_reason: null });
    expect(['CONVERTING', 'IN_PROGRESS', 'FAILED']).toContain(again.json.status);
    const ended = (await waitForStatus(server, alice, id, ['COMPLETED', 'FAILED'])).json;
    expect(ended.status).toBe('FAILED');
    expect(ended.transcription_path).toBeNull();
  });
});

describe('hostile requests to transcribe again', () => {
  let id: string;
  beforeAll(async () => {
    id = await transcribed();
  });

  it("another team's transcription is not found (404)", async () => {
    const answer = await call(stranger, `${base(id)}/transcribe`, { num_speakers: 1 });
    expect(answer.status).toBe(404);
    expect(answer.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_FOUND);
    expect((await server.api(alice, 'GET', base(id))).json.status).toBe('COMPLETED');
  });

  it.each([
    ['a speaker count of zero', { num_speakers: 0 }],
    ['a language that is not a code', { language: 'english' }],
    ['an unknown option', { filename: 'x.wav' }],
    ['a model that does not exist', { transcription_model: 'best' }],
    ['min above max', { min_speakers: 3, max_speakers: 2 }],
  ])('%s is refused with 400 in the error body, and nothing runs', async (_name, body) => {
    const answer = await call(alice, `${base(id)}/transcribe`, body);
    expect(answer.status).toBe(400);
    expect(typeof answer.json.error_id).toBe('string');
    expect(typeof answer.json.error_message).toBe('string');
    expect((await server.api(alice, 'GET', base(id))).json.status).toBe('COMPLETED');
  });

  it('stored audio that is gone (a lost disk, a removed object) answers 410, and nothing runs or changes', async () => {
    const gone = await transcribed();
    const before = await history(gone);
    const record = await server.runtime.ctx.transcriptions.getById(gone);
    // The storage boundary stands in for the loss: the object goes, the record stays.
    await server.runtime.ctx.storage.delete(record!.audioKey!);
    const answer = await call(alice, `${base(gone)}/transcribe`, { num_speakers: 1 });
    expect(answer.status).toBe(410);
    expect(answer.json).toMatchObject({
      error_code: ErrorCode.AUDIO_GONE,
      error_message: expect.stringMatching(/upload the file again/),
    });
    expect((await server.api(alice, 'GET', base(gone))).json.status).toBe('COMPLETED');
    expect(await history(gone)).toEqual(before);
  });

  it("another team's dictionary is not found (404)", async () => {
    const theirs = (await server.api(stranger, 'POST', '/api/v1/dictionaries', { name: 'Theirs' })).json
      .dictionary_id as string;
    const answer = await call(alice, `${base(id)}/transcribe`, { dictionary_id: theirs });
    expect(answer.status).toBe(404);
    expect(answer.json.error_code).toBe(ErrorCode.DICTIONARY_NOT_FOUND);
  });

  it('malformed JSON is 400 and an oversized body 413', async () => {
    const malformed = await call(alice, `${base(id)}/transcribe`, '{"num_speakers":');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error_code).toBe(ErrorCode.MALFORMED_JSON);
    const huge = await call(
      alice,
      `${base(id)}/transcribe`,
      JSON.stringify({ language: 'en', pad: 'x'.repeat(9 << 20) }),
    );
    expect(huge.status).toBe(413);
    expect(huge.json.error_code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect((await server.api(alice, 'GET', base(id))).json.status).toBe('COMPLETED');
  });
});
