// POST /api/v1/transcriptions/{id}/replacements/apply over real HTTP: real speech, pocketsphinx, SQLite
// and files. A dictionary's forced replacements rewrite a finished transcript without transcribing
// again, and the rewritten words are marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let speech: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice', ['DELETE']);
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => server.close());

const apply = (id: string, body?: unknown) =>
  server.api(key, 'POST', `/api/v1/transcriptions/${id}/replacements/apply`, body);
const newDictionary = async (name: string, rules: Array<{ pattern: string; replacement: string }>) => {
  const created = await server.api(key, 'POST', '/api/v1/dictionaries', { name });
  const id = created.json.dictionary_id as string;
  for (const rule of rules)
    expect((await server.api(key, 'POST', `/api/v1/dictionaries/${id}/blacklist_words`, rule)).status).toBe(200);
  return id;
};
const transcribed = async (body: Record<string, unknown>) => {
  const ticket = await uploadFile(server, key, speech, { language: 'en', ...body });
  await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  const done = (await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED'])).json;
  expect(done.status).toBe('COMPLETED');
  return ticket.transcription_id;
};
const documentOf = async (id: string): Promise<TranscriptDocument> => {
  const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
  return (await (await fetch(record.json.transcription_path)).json()) as TranscriptDocument;
};

describe('applying a dictionary to a finished transcript', () => {
  it("applies the transcription's own dictionary, added to after it finished, and marks the rewritten words", async () => {
    const dictionaryId = await newDictionary('Later rules', []);
    const id = await transcribed({ dictionary_id: dictionaryId });
    const before = await documentOf(id);
    expect(before.text).toMatch(/budget/i);
    expect(before.replacements).toEqual([]);

    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionaryId}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    const answered = await apply(id);
    expect(answered.status).toBe(200);
    expect(answered.json).toMatchObject({ transcription_id: id, status: 'COMPLETED' });

    const after = await documentOf(id);
    expect(after.text).toContain('Q3 budget');
    const word = after.segments.flatMap((s) => s.words).find((w) => w.word === 'Q3 budget')!;
    expect(word.replaced).toEqual({ pattern: 'budget', original: expect.stringMatching(/^budget$/i) });
    const heard = before.segments.flatMap((s) => s.words).find((w) => /^budget$/i.test(w.word))!;
    expect([word.start, word.end]).toEqual([heard.start, heard.end]);
    expect(after.replacements).toEqual([
      { pattern: 'budget', replacement: 'Q3 budget', count: 1, segment_ids: [expect.any(Number)] },
    ]);
    // Nothing else moved: same segments, same timings.
    expect(after.segments.map((s) => [s.id, s.start, s.end])).toEqual(
      before.segments.map((s) => [s.id, s.start, s.end]),
    );
  });

  it('applies another dictionary given by id, keeping what was applied before', async () => {
    const own = await newDictionary('Own', [{ pattern: 'meeting', replacement: 'call' }]);
    const id = await transcribed({ dictionary_id: own });
    expect((await documentOf(id)).text).toMatch(/budget call/i);
    const other = await newDictionary('Other', [{ pattern: 'next week', replacement: 'on Monday' }]);
    expect((await apply(id, { dictionary_id: other })).status).toBe(200);
    const after = await documentOf(id);
    expect(after.text).toMatch(/budget call moved to on Monday/i);
    expect(after.replacements.map((r) => [r.pattern, r.replacement, r.count])).toEqual([
      ['meeting', 'call', 1],
      ['next week', 'on Monday', 1],
    ]);
    // Applying the same dictionary again finds nothing more to rewrite: the counts stay.
    expect((await apply(id, { dictionary_id: other })).status).toBe(200);
    expect((await documentOf(id)).replacements.map((r) => r.count)).toEqual([1, 1]);
  });

  it('refuses what cannot be applied, in the error body', async () => {
    const plain = await transcribed({});
    const none = await apply(plain, {});
    expect(none.status).toBe(400);
    expect(none.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'dictionary_id' });

    const missing = await apply(plain, { dictionary_id: 'no-such-dictionary' });
    expect(missing.status).toBe(404);
    expect(missing.json.error_code).toBe(ErrorCode.DICTIONARY_NOT_FOUND);

    const extra = await apply(plain, { dictionary: 'x' });
    expect(extra.status).toBe(400);

    const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: 'pending.wav' });
    const pending = await apply(ticket.json.transcription_id, { dictionary_id: await newDictionary('Any', []) });
    expect(pending.status).toBe(409);
    expect(pending.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_COMPLETED);

    // Another team sees neither the transcription nor the dictionary.
    const stranger = await server.key('other-team', 'bob', []);
    const foreign = await server.api(stranger, 'POST', `/api/v1/transcriptions/${plain}/replacements/apply`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_FOUND);
  });
});
