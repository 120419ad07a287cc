// The areas whose own files run on SQLite only (their behaviour is HTTP's, not the backend's), walked once
// over real HTTP on PostgreSQL, pg-boss and S3 (the postgres-s3 project; vitest.config.ts): applying a
// dictionary to a finished transcript, the analyses, and the speech models with roles read from the key's
// record. One transcription of real speech serves them all. The full behaviour of each area is tested on
// SQLite in apply-replacements, analyses and models.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMOTION_LABELS } from '../../../src-shared/analysis.js';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { ModelsResponse } from '../../../src-shared/api/models.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { startTestServer, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let id: string;

const documentOf = async (): Promise<TranscriptDocument> => {
  const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
  return (await (await fetch(record.json.transcription_path)).json()) as TranscriptDocument;
};

/** Requests an analysis and polls its status_url until it is no longer IN_PROGRESS. */
async function analysed(kind: string, body?: unknown): Promise<any> {
  const ack = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/${kind}`, body);
  expect(ack.status, ack.text).toBe(200);
  for (;;) {
    const result = await (await fetch(ack.json.status_url, { headers: { 'x-api-key': key } })).json();
    if (result.status !== 'IN_PROGRESS') return result;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice', ['DELETE']);
  const speech = await concatWithSilence(
    [
      await synthesizeSpeech('the budget meeting moved to next week'),
      await synthesizeSpeech('john will send the budget report by friday'),
    ],
    1,
  );
  const ticket = await uploadFile(server, key, speech, { language: 'en' });
  id = ticket.transcription_id;
  await server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
  expect((await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json.status).toBe('COMPLETED');
});
afterAll(() => server.close());

describe('the areas tested in full on SQLite, once on this backend', () => {
  it('applies a dictionary to the finished transcript in storage, marking the rewritten words', async () => {
    const before = await documentOf();
    expect(before.text).toMatch(/budget/i);
    const dictionary = (await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Later rules' })).json;
    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionary.dictionary_id}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    const applied = await server.api(key, 'POST', `/api/v1/transcriptions/${id}/replacements/apply`, {
      dictionary_id: dictionary.dictionary_id,
    });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.json).toMatchObject({ transcription_id: id, status: 'COMPLETED' });

    const after = await documentOf();
    expect(after.text).toContain('Q3 budget');
    const word = after.segments.flatMap((s) => s.words).find((w) => w.word === 'Q3 budget')!;
    expect(word.replaced).toEqual({ pattern: 'budget', original: expect.stringMatching(/^budget$/i) });
    expect(after.replacements).toEqual([
      { pattern: 'budget', replacement: 'Q3 budget', count: expect.any(Number), segment_ids: expect.any(Array) },
    ]);
    expect(after.segments.map((s) => [s.id, s.start, s.end])).toEqual(
      before.segments.map((s) => [s.id, s.start, s.end]),
    );
  });

  it('summarizes, analyses emotion and translates through queued jobs, and deletes the analyses with the transcription', async () => {
    const document = await documentOf();
    const summary = await analysed('summary');
    expect(summary).toMatchObject({ transcription_id: id, status: 'COMPLETED', engine: 'textrank', error: null });
    expect(summary.summarized_text).toMatch(/report|budget/i);
    const segmentIds = document.segments.map((s) => s.id);
    for (const item of [...summary.action_items, ...summary.key_points, ...summary.decisions])
      expect(segmentIds).toContain(item.segment_id);

    const emotion = await analysed('emotion');
    expect(emotion.status).toBe('COMPLETED');
    expect(emotion.emotions).toHaveLength(document.segments.length + 1);
    for (const entry of emotion.emotions) expect(EMOTION_LABELS).toContain(entry.label);

    const translation = await analysed('translate', { language: 'es' });
    expect(translation).toMatchObject({ status: 'COMPLETED', language: 'es', source_language: 'en' });
    expect(translation.segments.map((s: any) => s.segment_id)).toEqual(segmentIds);

    expect((await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`)).status).toBe(200);
    for (const kind of ['summary', 'emotion', 'translate']) {
      const gone = await server.api(key, 'GET', `/api/v1/transcriptions/${id}/${kind}`);
      expect(gone.status).toBe(404);
    }
    const rows = await server.runtime.db.kysely
      .selectFrom('analyses')
      .select('kind')
      .where('transcription_id', '=', id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('lists the speech models, and lets only a key whose record has OPERATOR manage them', async () => {
    const operator = await server.key('acme', 'operator', ['OPERATOR']);
    const member = await server.key('acme', 'member', ['ADMIN']);
    const listed = await server.api(member, 'GET', '/api/v1/models');
    expect(listed.status).toBe(200);
    const body = listed.json as ModelsResponse;
    expect(body.can_manage).toBe(false);
    expect(body.models.length).toBeGreaterThan(0);
    expect(body.models.every((m) => m.installed === false)).toBe(true);
    expect(body.serving.default).toMatchObject({ engine: 'pocketsphinx', model: null });
    expect((await server.api(operator, 'GET', '/api/v1/models')).json.can_manage).toBe(true);

    const refused = await server.api(member, 'POST', `/api/v1/models/${body.models[0]!.name}/download`);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      error_code: ErrorCode.ROLE_REQUIRED,
      error_message: expect.stringMatching(/OPERATOR role/),
    });
  });
});
