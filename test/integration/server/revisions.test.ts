// A transcript's revisions over real HTTP (issue 24, decision 0052): real speech, pocketsphinx, and the run's
// backend (SQLite and files, or PostgreSQL and S3). A review, edits, dictionary re-applies and restores each
// make a revision; the document at transcription_path is the latest; concurrent edits of different segments
// both survive, edits of the same segment are refused with the segment ids; If-Match guards every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import {
  rawRequest,
  startTestServer,
  transcribeFile,
  type ApiResponse,
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

const call = (key: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) =>
  rawRequest(server, key, method, route, body, headers);

const transcribed = (body: Record<string, unknown> = {}) =>
  transcribeFile(server, alice, speech, { language: 'en', ...body });

/** The document at transcription_path, in a format. */
async function served(id: string, format = 'json'): Promise<{ text: string; etag: string | null }> {
  const record = await server.api(alice, 'GET', base(id));
  const response = await fetch(`${record.json.transcription_path}&format=${format}`);
  expect(response.status).toBe(200);
  return { text: await response.text(), etag: response.headers.get('etag') };
}
const servedDocument = async (id: string) => JSON.parse((await served(id)).text) as TranscriptDocument;

const latest = async (id: string) => {
  const list = await server.api(alice, 'GET', `${base(id)}/revisions`);
  expect(list.status).toBe(200);
  const revision = list.json.latest_revision as number;
  const one = await server.api(alice, 'GET', `${base(id)}/revisions/${revision}`);
  expect(one.status).toBe(200);
  return { revision, document: one.json.document as TranscriptDocument, list: list.json };
};

const edit = (key: string, id: string, baseRevision: number, operations: unknown[], headers?: Record<string, string>) =>
  call(key, 'POST', `${base(id)}/revisions`, { base_revision: baseRevision, operations }, headers);

/** Splits the first segment so the transcript has at least three, for edits of different segments. */
async function threeSegments(id: string): Promise<{ revision: number; ids: number[] }> {
  const start = await latest(id);
  const first = start.document.segments[0]!;
  expect(first.words.length).toBeGreaterThanOrEqual(4);
  const split = await edit(alice, id, start.revision, [
    { kind: 'split', segmentId: first.id, wordIndex: 2 },
    { kind: 'split', segmentId: first.id, wordIndex: 1 },
  ]);
  expect(split.status).toBe(200);
  const now = await latest(id);
  expect(now.document.segments.length).toBeGreaterThanOrEqual(3);
  return { revision: now.revision, ids: now.document.segments.map((s) => s.id) };
}

describe('a review and a dictionary re-apply', () => {
  it('both survive, in GET /review and in the document in every format, as revisions 2 and 3', async () => {
    const dictionary = (await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'Later rules' })).json
      .dictionary_id as string;
    const id = await transcribed({ dictionary_id: dictionary });
    expect((await server.api(alice, 'GET', `${base(id)}/review`)).json.error_code).toBe(ErrorCode.REVIEW_NOT_FOUND);
    const recognized = await servedDocument(id);
    expect(recognized.revision).toBe(1);
    expect(recognized.text).toMatch(/meeting/i);

    // The review: the recognized lines with one word corrected.
    const lines = recognized.segments.map((s) => s.text.replace(/meeting/i, 'offsite'));
    const saved = await server.api(alice, 'POST', `${base(id)}/review`, { reviewed_text: lines.join('\n') });
    expect(saved.status).toBe(200);
    expect(saved.headers.get('etag')).toBe('"2"');

    await server.api(alice, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    expect((await server.api(bob, 'POST', `${base(id)}/replacements/apply`)).status).toBe(200);

    const review = await server.api(alice, 'GET', `${base(id)}/review`);
    expect(review.json.reviewed_text).toContain('offsite');
    expect(review.json.reviewed_text).toContain('Q3 budget');
    expect(review.headers.get('etag')).toBe('"3"');

    const document = await servedDocument(id);
    expect(document.revision).toBe(3);
    expect(document.text).toContain('offsite');
    expect(document.text).toContain('Q3 budget');
    expect(document.text).not.toMatch(/meeting/i);
    const marked = document.segments.flatMap((s) => s.words).find((w) => w.word === 'Q3 budget');
    expect(marked?.replaced).toEqual({ pattern: 'budget', original: expect.stringMatching(/^budget$/i) });
    expect(document.replacements).toEqual([
      { pattern: 'budget', replacement: 'Q3 budget', count: 1, segment_ids: [expect.any(Number)] },
    ]);
    for (const format of ['srt', 'vtt', 'txt']) {
      const text = (await served(id, format)).text;
      expect(text).toContain('offsite');
      expect(text).toContain('Q3 budget');
    }
    expect((await served(id)).etag).toBe('"3"');

    const history = await server.api(alice, 'GET', `${base(id)}/revisions`);
    expect(history.json.revisions.map((r: { source: string }) => r.source)).toEqual([
      'recognized',
      'review',
      'dictionary',
    ]);
    expect(history.json.revisions[2].summary).toMatch(/1 replacement/);
  });
});

describe('edits from two people', () => {
  let id: string;
  beforeAll(async () => {
    id = await transcribed();
  });

  it('on different segments, made on the same revision: both survive, the second rebased', async () => {
    const { revision, ids } = await threeSegments(id);
    const first = await edit(alice, id, revision, [{ kind: 'text', segmentId: ids[0], text: 'Alice was here' }]);
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ revision: revision + 1, rebased: false, changed: true, source: 'edit' });
    const second = await edit(bob, id, revision, [{ kind: 'text', segmentId: ids[2], text: 'Bob was here' }]);
    expect(second.status).toBe(200);
    expect(second.json).toMatchObject({ revision: revision + 2, rebased: true, author: { name: 'bob name' } });

    const now = await latest(id);
    const texts = new Map(now.document.segments.map((s) => [s.id, s.text]));
    expect(texts.get(ids[0]!)).toBe('Alice was here');
    expect(texts.get(ids[2]!)).toBe('Bob was here');
    const document = await servedDocument(id);
    expect(document.revision).toBe(revision + 2);
    expect(document.text).toContain('Alice was here');
    expect(document.text).toContain('Bob was here');
  });

  it('on the same segment: the second is refused with 412 and the segment id, and nothing is lost', async () => {
    const { revision, document } = await latest(id);
    const target = document.segments[1]!.id;
    const other = document.segments[0]!;
    const mine = await edit(alice, id, revision, [{ kind: 'text', segmentId: target, text: 'first writer' }]);
    expect(mine.status).toBe(200);
    const theirs = await edit(bob, id, revision, [
      { kind: 'text', segmentId: other.id, text: 'an edit beside it' },
      { kind: 'text', segmentId: target, text: 'second writer' },
    ]);
    expect(theirs.status).toBe(412);
    expect(theirs.json).toMatchObject({
      error_code: ErrorCode.REVISION_CONFLICT,
      details: { current_revision: revision + 1, conflicting_segment_ids: [target], conflicting_speakers: [] },
    });
    expect(typeof theirs.json.error_id).toBe('string');
    // Nothing of the refused request was written, and the first writer's text is there.
    const after = await latest(id);
    expect(after.revision).toBe(revision + 1);
    expect(after.document.segments.find((s) => s.id === target)!.text).toBe('first writer');
    expect(after.document.segments.find((s) => s.id === other.id)!.text).toBe(other.text);
    // Made again on the latest revision, it goes through.
    const again = await edit(bob, id, after.revision, [{ kind: 'text', segmentId: target, text: 'second writer' }]);
    expect(again.status).toBe(200);
    expect((await servedDocument(id)).text).toContain('second writer');
  });

  it('a merge meeting an edit of the segment it swallows conflicts on that segment', async () => {
    const { revision, document } = await latest(id);
    const [a, b] = document.segments;
    expect((await edit(alice, id, revision, [{ kind: 'text', segmentId: b!.id, text: 'edited tail' }])).status).toBe(
      200,
    );
    const merge = await edit(bob, id, revision, [{ kind: 'merge', segmentId: a!.id }]);
    expect(merge.status).toBe(412);
    expect(merge.json.details.conflicting_segment_ids).toEqual([b!.id]);
  });

  it('lists the history oldest first, with each author and source', async () => {
    const history = await server.api(bob, 'GET', `${base(id)}/revisions`);
    const revisions = history.json.revisions as Array<{
      revision: number;
      author: { user_id: string; name: string };
      source: string;
      created_at: string;
      summary: string;
    }>;
    expect(revisions.map((r) => r.revision)).toEqual(revisions.map((_, i) => i + 1));
    expect(history.json.latest_revision).toBe(revisions.length);
    expect(revisions.map((r) => [r.author.user_id, r.source])).toEqual([
      ['alice', 'recognized'],
      ['alice', 'edit'],
      ['alice', 'edit'],
      ['bob', 'edit'],
      ['alice', 'edit'],
      ['bob', 'edit'],
      ['alice', 'edit'],
    ]);
    expect(revisions[1]!.summary).toMatch(/Split segment/);
    expect(revisions[3]!.author.name).toBe('bob name');
    const times = revisions.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
  });

  it('restores an older revision as a new one, and keeps every revision readable', async () => {
    const before = await latest(id);
    const one = await server.api(alice, 'GET', `${base(id)}/revisions/1`);
    expect(one.json).toMatchObject({ revision: 1, source: 'recognized', author: { user_id: 'alice' } });
    const restored = await call(bob, 'POST', `${base(id)}/revisions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.json).toMatchObject({
      revision: before.revision + 1,
      source: 'restore',
      summary: 'Restored revision 1',
    });
    expect(restored.headers.get('etag')).toBe(`"${before.revision + 1}"`);
    const document = await servedDocument(id);
    expect(document.revision).toBe(before.revision + 1);
    expect(document.segments).toEqual(one.json.document.segments);
    expect(document.text).toBe(one.json.document.text);
    // The revision before the restore is still there, as it was.
    const kept = await server.api(alice, 'GET', `${base(id)}/revisions/${before.revision}`);
    expect(kept.json.document.segments).toEqual(before.document.segments);
  });
});

describe('edits sent at the same moment', () => {
  it('to different segments, all on one base revision: every one is written, each as its own revision', async () => {
    const id = await transcribed();
    const start = await latest(id);
    const first = start.document.segments[0]!;
    expect(first.words.length).toBeGreaterThanOrEqual(4);
    // Four segments: split before words 3, 2 and 1 of the first.
    const split = await edit(
      alice,
      id,
      start.revision,
      [3, 2, 1].map((w) => ({ kind: 'split', segmentId: first.id, wordIndex: w })),
    );
    expect(split.status).toBe(200);
    const { revision, document } = await latest(id);
    const targets = document.segments.slice(0, 4).map((s) => s.id);
    const answers = await Promise.all(
      targets.map((segmentId, i) =>
        edit(i % 2 === 0 ? alice : bob, id, revision, [{ kind: 'text', segmentId, text: `parallel ${i}` }]),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.json.revision as number).sort((a, b) => a - b)).toEqual([
      revision + 1,
      revision + 2,
      revision + 3,
      revision + 4,
    ]);
    const now = await latest(id);
    expect(targets.map((t) => now.document.segments.find((s) => s.id === t)!.text)).toEqual([
      'parallel 0',
      'parallel 1',
      'parallel 2',
      'parallel 3',
    ]);
  });
});

describe('If-Match', () => {
  let id: string;
  beforeAll(async () => {
    const dictionary = (await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'If-Match rules' })).json
      .dictionary_id as string;
    id = await transcribed({ dictionary_id: dictionary });
    // Added after the transcription, so applying the dictionary has something to rewrite.
    await server.api(alice, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'report',
      replacement: 'summary',
    });
  });

  it('lets a write through when it names the latest revision, and refuses it with 412 once the transcript moved on', async () => {
    const { revision, document } = await latest(id);
    const text = document.segments.map((s) => s.text).join('\n');
    const ok = await call(
      alice,
      'POST',
      `${base(id)}/review`,
      { reviewed_text: text },
      { 'if-match': `"${revision}"` },
    );
    expect(ok.status).toBe(200);
    expect(ok.headers.get('etag')).toBe(`"${revision + 1}"`);

    const stale = { 'if-match': `"${revision}"` };
    const checks: Array<[string, ApiResponse]> = [
      ['review', await call(bob, 'POST', `${base(id)}/review`, { reviewed_text: 'x' }, stale)],
      ['revisions', await edit(bob, id, revision, [{ kind: 'merge', segmentId: document.segments[0]!.id }], stale)],
      ['apply', await call(bob, 'POST', `${base(id)}/replacements/apply`, {}, stale)],
      ['restore', await call(bob, 'POST', `${base(id)}/revisions/1/restore`, undefined, stale)],
    ];
    for (const [what, response] of checks) {
      expect([what, response.status]).toEqual([what, 412]);
      expect(response.json).toMatchObject({
        error_code: ErrorCode.REVISION_CONFLICT,
        details: { current_revision: revision + 1 },
      });
    }
    // None of them wrote anything.
    expect((await latest(id)).revision).toBe(revision + 1);

    const current = { 'if-match': `"${revision + 1}"` };
    const applied = await call(bob, 'POST', `${base(id)}/replacements/apply`, {}, current);
    expect(applied.status).toBe(200);
    expect((await latest(id)).list.revisions.at(-1)).toMatchObject({
      source: 'dictionary',
      author: { user_id: 'bob' },
    });
  });

  it('refuses an If-Match that names no revision, with the header as the field', async () => {
    for (const value of ['3', '"abc"', '"0"', '"1", "2"', `"${'9'.repeat(30)}"`]) {
      const response = await call(alice, 'POST', `${base(id)}/review`, { reviewed_text: 'x' }, { 'if-match': value });
      expect([value, response.status]).toEqual([value, 400]);
      expect(response.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
    }
    const named = await call(alice, 'POST', `${base(id)}/review`, { reviewed_text: 'x' }, { 'if-match': 'abc' });
    expect(named.json.field).toBe('If-Match');
  });
});

describe('speaker names', () => {
  it('are part of the document, renamed through a revision, shown in subtitles, and conflict per speaker', async () => {
    const id = await transcribed({ num_speakers: 1 });
    const { revision, document } = await latest(id);
    const label = document.segments.find((s) => s.speaker)?.speaker;
    expect(label).toMatch(/^SPEAKER_/);
    const named = await edit(alice, id, revision, [{ kind: 'speaker-name', speaker: label, name: '  Aiko  Tanaka ' }]);
    expect(named.status).toBe(200);
    expect(named.json.summary).toBe(`Named ${label} "Aiko Tanaka"`);
    const served1 = await servedDocument(id);
    expect(served1.speaker_names).toEqual({ [label!]: 'Aiko Tanaka' });
    expect((await served(id, 'srt')).text).toContain('Aiko Tanaka: ');
    expect((await served(id, 'vtt')).text).toContain('<v Aiko Tanaka>');
    // JSON keeps the label on each segment; the name is beside it.
    expect(served1.segments.find((s) => s.speaker)!.speaker).toBe(label);

    const rival = await edit(bob, id, revision, [{ kind: 'speaker-name', speaker: label, name: 'Bob' }]);
    expect(rival.status).toBe(412);
    expect(rival.json.details).toMatchObject({ conflicting_segment_ids: [], conflicting_speakers: [label] });

    const unknown = await edit(alice, id, revision + 1, [{ kind: 'speaker-name', speaker: 'SPEAKER_99', name: 'X' }]);
    expect(unknown.status).toBe(400);
    expect(unknown.json.field).toBe('operations.0.speaker');
    const removed = await edit(alice, id, revision + 1, [{ kind: 'speaker-name', speaker: label, name: null }]);
    expect(removed.status).toBe(200);
    expect((await servedDocument(id)).speaker_names).toEqual({});
  });
});

describe('speaker editing (decision 0060)', () => {
  it('adds a new speaker, splits a segment to it, merges it into another, and a rival new speaker conflicts', async () => {
    const id = await transcribed({ num_speakers: 1 });
    const { revision, ids } = await threeSegments(id);
    expect(new Set((await latest(id)).document.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1']));

    const added = await edit(alice, id, revision, [{ kind: 'speaker', segmentId: ids[0], speaker: 'SPEAKER_2' }]);
    expect(added.status).toBe(200);
    // Bob added a new speaker on the same revision, to another segment: the same label would be Alice's person.
    const rival = await edit(bob, id, revision, [{ kind: 'speaker', segmentId: ids[2], speaker: 'SPEAKER_2' }]);
    expect(rival.status).toBe(412);
    expect(rival.json.details).toMatchObject({ conflicting_speakers: ['SPEAKER_2'] });

    const now = await latest(id);
    const last = now.document.segments.find((s) => s.id === ids[2])!;
    expect(last.words.length).toBeGreaterThanOrEqual(2);
    const split = await edit(bob, id, now.revision, [
      { kind: 'split', segmentId: ids[2], wordIndex: 1, speaker: 'SPEAKER_2' },
      { kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Ben' },
    ]);
    expect(split.status).toBe(200);
    expect(split.json.summary).toContain(`Split segment ${ids[2]}, the second part to SPEAKER_2`);
    const afterSplit = await servedDocument(id);
    expect(afterSplit.segments.map((s) => s.speaker)).toEqual(['SPEAKER_2', 'SPEAKER_1', 'SPEAKER_1', 'SPEAKER_2']);
    expect(afterSplit.speaker_names).toEqual({ SPEAKER_2: 'Ben' });
    expect((await served(id, 'srt')).text).toContain('Ben: ');

    const merged = await edit(alice, id, now.revision + 1, [
      { kind: 'merge-speakers', from: 'SPEAKER_2', into: 'SPEAKER_1' },
    ]);
    expect(merged.status).toBe(200);
    expect(merged.json.summary).toBe('Merged SPEAKER_2 into SPEAKER_1');
    const afterMerge = await servedDocument(id);
    expect(afterMerge.segments.map((s) => s.speaker)).toEqual(['SPEAKER_1', 'SPEAKER_1', 'SPEAKER_1', 'SPEAKER_1']);
    expect(afterMerge.speaker_names).toEqual({});
    expect(afterMerge.segments.map((s) => s.text)).toEqual(afterSplit.segments.map((s) => s.text));
  });

  it('refuses unknown and malformed labels, a merge into itself, and another team, naming the field', async () => {
    const id = await transcribed({ num_speakers: 1 });
    const { revision, document } = await latest(id);
    const segmentId = document.segments[0]!.id;
    const cases: Array<[unknown, string]> = [
      [{ kind: 'speaker', segmentId, speaker: 'SPEAKER_9' }, 'operations.0.speaker'],
      [{ kind: 'speaker', segmentId, speaker: 'Alice' }, 'operations.0.speaker'],
      [{ kind: 'merge-speakers', from: 'SPEAKER_7', into: 'SPEAKER_1' }, 'operations.0.from'],
      [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_2' }, 'operations.0.into'],
      [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_1' }, 'operations.0.into'],
      [{ kind: 'split', segmentId, wordIndex: 1, speaker: 'SPEAKER_3' }, 'operations.0.speaker'],
    ];
    for (const [operation, field] of cases) {
      const response = await edit(alice, id, revision, [operation]);
      expect([operation, response.status, response.json.field]).toEqual([operation, 400, field]);
      expect(response.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
    }
    const oversized = await edit(alice, id, revision, [{ kind: 'merge-speakers', from: 'S'.repeat(201), into: 'X' }]);
    expect(oversized.status).toBe(400);
    const merge = await edit(alice, id, revision, [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_1' }]);
    expect(merge.json.error_message).toBe('A speaker is merged into another speaker, not itself.');
    const foreign = await edit(stranger, id, revision, [{ kind: 'speaker', segmentId, speaker: 'SPEAKER_2' }]);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_FOUND);
    expect((await latest(id)).revision).toBe(revision);
  });
});

describe('analyses', () => {
  /** Polls an analysis until it is no longer IN_PROGRESS. */
  async function settled(id: string): Promise<Record<string, unknown>> {
    for (;;) {
      const response = await server.api(alice, 'GET', `${base(id)}/summary`);
      if (response.json.status !== 'IN_PROGRESS') return response.json;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('record the revision they were computed from, say when the transcript moved on, and read the edits', async () => {
    const id = await transcribed();
    expect((await server.api(alice, 'POST', `${base(id)}/summary`)).status).toBe(200);
    const first = await settled(id);
    expect(first).toMatchObject({ status: 'COMPLETED', revision: 1, current_revision: 1, outdated: false });

    const { revision, document } = await latest(id);
    const edited = await edit(bob, id, revision, [
      { kind: 'text', segmentId: document.segments[0]!.id, text: 'The quarterly plan was approved by the board.' },
    ]);
    expect(edited.status).toBe(200);
    expect(await settled(id)).toMatchObject({ revision: 1, current_revision: 2, outdated: true });

    await server.api(alice, 'POST', `${base(id)}/summary`);
    const again = await settled(id);
    expect(again).toMatchObject({ status: 'COMPLETED', revision: 2, current_revision: 2, outdated: false });
    expect(JSON.stringify(again)).toContain('quarterly plan');
  });

  it('are outdated after a restore and after a dictionary re-apply too, each a revision', async () => {
    const dictionary = (await server.api(alice, 'POST', '/api/v1/dictionaries', { name: 'Outdated rules' })).json
      .dictionary_id as string;
    const id = await transcribed({ dictionary_id: dictionary });
    const { revision, document } = await latest(id);
    const edited = await edit(alice, id, revision, [
      { kind: 'text', segmentId: document.segments[0]!.id, text: 'The budget plan was approved.' },
    ]);
    expect(edited.status).toBe(200);
    await server.api(alice, 'POST', `${base(id)}/summary`);
    expect(await settled(id)).toMatchObject({ revision: 2, current_revision: 2, outdated: false });

    expect((await call(bob, 'POST', `${base(id)}/revisions/1/restore`)).status).toBe(200);
    expect(await settled(id)).toMatchObject({ revision: 2, current_revision: 3, outdated: true });

    await server.api(alice, 'POST', `${base(id)}/summary`);
    expect(await settled(id)).toMatchObject({ revision: 3, current_revision: 3, outdated: false });
    await server.api(alice, 'POST', `/api/v1/dictionaries/${dictionary}/blacklist_words`, {
      pattern: 'budget',
      replacement: 'Q3 budget',
    });
    expect((await server.api(bob, 'POST', `${base(id)}/replacements/apply`)).status).toBe(200);
    expect(await settled(id)).toMatchObject({ revision: 3, current_revision: 4, outdated: true });
  });
});

describe('the OpenAPI document', () => {
  it("lists the revision operations and the error body's details", async () => {
    const doc = await (await fetch(`${server.url}/openapi.json`)).json();
    const paths = doc.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/api/v1/transcriptions/{transcription_id}/revisions']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/v1/transcriptions/{transcription_id}/revisions/{revision}']!)).toEqual(['get']);
    expect(Object.keys(paths['/api/v1/transcriptions/{transcription_id}/revisions/{revision}/restore']!)).toEqual([
      'post',
    ]);
    expect(doc.components.schemas.ErrorBody.properties.details).toMatchObject({ type: 'object' });
    // Speaker editing (decision 0060): the merge of two speakers, and a split's speaker for its second part.
    const body = JSON.stringify(paths['/api/v1/transcriptions/{transcription_id}/revisions']!.post);
    expect(body).toContain('"merge-speakers"');
    expect(body).toContain('the second part gets that speaker');
  });
});

describe('hostile input', () => {
  let id: string;
  beforeAll(async () => {
    id = await transcribed();
  });

  it("answers another team's transcript as unknown, on every revision route, and writes nothing", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `${base(id)}/revisions`],
      ['GET', `${base(id)}/revisions/1`],
      ['POST', `${base(id)}/revisions`, { base_revision: 1, operations: [{ kind: 'text', segmentId: 0, text: 'x' }] }],
      ['POST', `${base(id)}/revisions/1/restore`],
      ['GET', `${base(id)}/review`],
      ['POST', `${base(id)}/review`, { reviewed_text: 'pwned' }],
    ];
    for (const [method, route, body] of routes) {
      const response = await call(stranger, method, route, body);
      expect([method, route, response.status]).toEqual([method, route, 404]);
      expect(response.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_FOUND);
    }
    expect((await latest(id)).revision).toBe(1);
    expect((await servedDocument(id)).text).not.toContain('pwned');
  });

  it('refuses malformed operations with the field that is wrong, writing nothing', async () => {
    const { document } = await latest(id);
    const segment = document.segments[0]!;
    const cases: Array<[unknown, string | undefined]> = [
      [{ base_revision: 1, operations: [] }, 'operations'],
      [{ base_revision: 1, operations: [{ kind: 'delete', segmentId: segment.id }] }, undefined],
      [{ base_revision: 1, operations: [{ kind: 'text', segmentId: segment.id, text: 'x', extra: 1 }] }, undefined],
      [{ base_revision: 1, operations: [{ kind: 'text', segmentId: -1, text: 'x' }] }, undefined],
      [{ base_revision: 1, operations: [{ kind: 'text', segmentId: '0', text: 'x' }] }, undefined],
      [{ base_revision: 1, operations: [{ kind: 'text', segmentId: 99_999, text: 'x' }] }, 'operations.0.segmentId'],
      [
        { base_revision: 1, operations: [{ kind: 'word', segmentId: segment.id, wordIndex: 9999, text: 'x' }] },
        'operations.0.wordIndex',
      ],
      [
        { base_revision: 1, operations: [{ kind: 'split', segmentId: segment.id, wordIndex: 0 }] },
        'operations.0.wordIndex',
      ],
      [
        { base_revision: 1, operations: [{ kind: 'speaker', segmentId: segment.id, speaker: 'SPEAKER_7' }] },
        'operations.0.speaker',
      ],
      [
        {
          base_revision: 1,
          operations: [
            {
              kind: 'replace',
              query: 'zzzz-not-there',
              replacement: 'y',
              options: { matchCase: true, wholeWord: true },
            },
          ],
        },
        'operations.0.query',
      ],
      [
        {
          base_revision: 1,
          operations: Array.from({ length: 501 }, () => ({ kind: 'text', segmentId: segment.id, text: 'x' })),
        },
        'operations',
      ],
      [{ base_revision: 1, operations: 'text' }, 'operations'],
      [{ operations: [{ kind: 'merge', segmentId: segment.id }] }, undefined],
      [{ base_revision: 1, operations: [{ kind: 'merge', segmentId: segment.id }], team_id: 'globex' }, undefined],
    ];
    for (const [body, field] of cases) {
      const response = await call(alice, 'POST', `${base(id)}/revisions`, body);
      expect([JSON.stringify(body).slice(0, 80), response.status]).toEqual([JSON.stringify(body).slice(0, 80), 400]);
      expect(response.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
      if (field) expect(response.json.field).toBe(field);
    }
    const notJson = await call(alice, 'POST', `${base(id)}/revisions`, '{"base_revision": 1, "operations": [');
    expect(notJson.json.error_code).toBe(ErrorCode.MALFORMED_JSON);
    expect((await latest(id)).revision).toBe(1);
  });

  it('refuses forged revision numbers', async () => {
    const { document } = await latest(id);
    const op = [{ kind: 'text', segmentId: document.segments[0]!.id, text: 'forged' }];
    const future = await edit(alice, id, 2, op);
    expect(future.status).toBe(400);
    expect(future.json).toMatchObject({ error_code: ErrorCode.VALIDATION_FAILED, field: 'base_revision' });
    for (const base_revision of [0, -1, 1.5, '1', 2 ** 60]) {
      const response = await call(alice, 'POST', `${base(id)}/revisions`, { base_revision, operations: op });
      expect([base_revision, response.status]).toEqual([base_revision, 400]);
    }
    for (const revision of ['2', '0', '-1', 'abc', '1.5', '99999999999999999999']) {
      const read = await call(alice, 'GET', `${base(id)}/revisions/${revision}`);
      expect([revision, read.status]).toEqual([revision, 400]);
      expect(read.json.error_code).toBe(ErrorCode.VALIDATION_FAILED);
      const restore = await call(alice, 'POST', `${base(id)}/revisions/${revision}/restore`);
      expect([revision, restore.status]).toEqual([revision, 400]);
    }
    expect((await latest(id)).revision).toBe(1);
  });

  it('refuses an oversized body before reading it all', async () => {
    const huge = { base_revision: 1, operations: [{ kind: 'text', segmentId: 0, text: 'x'.repeat(3 * 1024 * 1024) }] };
    const response = await call(alice, 'POST', `${base(id)}/revisions`, huge);
    expect(response.status).toBe(413);
    expect(response.json.error_code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    const long = await call(alice, 'POST', `${base(id)}/revisions`, {
      base_revision: 1,
      operations: [{ kind: 'text', segmentId: 0, text: 'x'.repeat(20_001) }],
    });
    expect(long.status).toBe(400);
  });

  it('answers 409 for a transcription that has no transcript yet', async () => {
    const ticket = await server.api(alice, 'POST', '/api/v1/transcriptions/upload', { filename: 'pending.wav' });
    const pending = ticket.json.transcription_id as string;
    for (const [method, route] of [
      ['GET', `${base(pending)}/revisions`],
      ['GET', `${base(pending)}/revisions/1`],
      ['POST', `${base(pending)}/revisions/1/restore`],
    ] as const) {
      const response = await call(alice, method, route);
      expect([route, response.status]).toEqual([route, 409]);
      expect(response.json.error_code).toBe(ErrorCode.TRANSCRIPTION_NOT_COMPLETED);
    }
  });
});
