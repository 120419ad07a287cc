// The team voice library (issue 25 item 3, decision 0065) over real HTTP with generated speech: a voice
// enrolled from parts of one transcription is recognized in a new transcription of other sentences, an
// unenrolled voice keeps its SPEAKER_n label, an upload can opt out, and the library is the team's own.
import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import {
  audioDuration,
  concatWithSilence,
  synthesizeSpeech,
  toWav16k,
  type Voice,
} from '../../support/audio-fixtures.js';
import { rawRequest, startTestServer, tempDir, transcribeFile, type TestServer } from '../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

const VOICE_LIMIT = 3;
let server: TestServer;
let key: string;
let otherKey: string;
let meeting: TwoVoiceMeeting;
/** The meeting transcribed: where the voices are enrolled from. */
let source: string;
/** Other sentences by the same two voices, with pauses. */
let second: string;
let secondReference: { start: number; end: number; voice: Voice }[];
/** The first meeting transcribed by the other team. */
let theirs: string;

const SECOND_TURNS: [Voice, string][] = [
  ['espeak', 'good morning everyone and welcome to the weekly review'],
  ['festival', 'thank you, i have three short points about the budget today'],
  ['espeak', 'please go ahead, we have about ten minutes left'],
  ['festival', 'first, travel costs went up, so we should book trains earlier'],
];

beforeAll(async () => {
  // A small library limit, so that the test of the limit can fill it; every other test keeps at most two voices.
  server = await startTestServer({ env: { KIKITORI_MAX_VOICES_PER_TEAM: String(VOICE_LIMIT) } });
  key = await server.key('acme');
  otherKey = await server.key('globex');
  meeting = await twoVoiceMeeting();
  const parts = await Promise.all(SECOND_TURNS.map(([voice, text]) => synthesizeSpeech(text, undefined, { voice })));
  const lengths = await Promise.all(parts.map(async (p) => audioDuration(await toWav16k(p))));
  let t = 0;
  secondReference = lengths.map((length, i) => {
    const turn = { start: t, end: t + length, voice: SECOND_TURNS[i]![0] };
    t += length + 0.6;
    return turn;
  });
  second = path.join(tempDir(), 'second-meeting.wav');
  fs.copyFileSync(await concatWithSilence(parts, 0.6), second);
  source = await transcribeFile(server, key, meeting.wav, { language: 'en' });
  theirs = await transcribeFile(server, otherKey, meeting.wav, { language: 'en' });
});
afterAll(() => server.close());

/** festival's turns of the first meeting, as samples. */
const festivalSamples = () =>
  meeting.reference
    .filter((r) => r.voice === 'festival')
    .map((r) => ({ transcription_id: source, start: r.start, end: r.end }));

async function enrol(name: string, samples = festivalSamples(), as = key) {
  return server.api(as, 'POST', '/api/v1/speakers', { name, samples });
}

async function documentOf(id: string): Promise<TranscriptDocument> {
  const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
  return (await fetch(record.json.transcription_path)).json();
}

/** The reference voice at the middle of a segment. */
const voiceOf = (segment: { start: number; end: number }) => {
  const middle = (segment.start + segment.end) / 2;
  return secondReference.find((r) => middle >= r.start - 0.3 && middle <= r.end + 0.3)?.voice;
};

describe('enrolling and recognizing a voice', () => {
  it('names the enrolled voice in a new transcription and leaves the unenrolled one as SPEAKER_n', async () => {
    const created = await enrol('Alice');
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ name: 'Alice', team_id: expect.any(String) });
    expect(created.json.samples).toHaveLength(2);
    expect(created.json.speech_seconds).toBeGreaterThanOrEqual(3);
    const aliceId = created.json.speaker_id as string;
    try {
      const id = await transcribeFile(server, key, second, { language: 'en' });
      const document = await documentOf(id);
      let festival = 0;
      let espeak = 0;
      for (const segment of document.segments) {
        expect(segment.speaker).toMatch(/^SPEAKER_\d$/);
        const voice = voiceOf(segment);
        if (voice === 'festival') {
          festival++;
          expect(segment).toMatchObject({ speaker_id: aliceId, speaker_name: 'Alice' });
          expect(segment.speaker_confidence).toBeGreaterThan(0.5);
          expect(segment.speaker_confidence).toBeLessThanOrEqual(1);
        } else if (voice === 'espeak') {
          espeak++;
          expect(segment.speaker_id).toBeUndefined();
          expect(segment.speaker_name).toBeUndefined();
        }
      }
      expect(festival).toBeGreaterThan(0);
      expect(espeak).toBeGreaterThan(0);
    } finally {
      await server.api(key, 'DELETE', `/api/v1/speakers/${aliceId}`);
    }
  });

  it('recognizes no one when the upload opts out', async () => {
    const created = await enrol('Alice');
    try {
      const id = await transcribeFile(server, key, second, { language: 'en', recognize_speakers: false });
      expect((await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).json.recognize_speakers).toBe(false);
      const document = await documentOf(id);
      expect(new Set(document.segments.map((s) => s.speaker)).size).toBe(2);
      expect(document.segments.filter((s) => s.speaker_name !== undefined || s.speaker_id !== undefined)).toEqual([]);
    } finally {
      await server.api(key, 'DELETE', `/api/v1/speakers/${created.json.speaker_id}`);
    }
  });

  it("does not look in another team's library", async () => {
    const mallory = await enrol(
      'Mallory',
      festivalSamples().map((s) => ({ ...s, transcription_id: theirs })),
      otherKey,
    );
    expect(mallory.status).toBe(200);
    const id = await transcribeFile(server, key, second, { language: 'en' });
    expect((await documentOf(id)).segments.filter((s) => s.speaker_name !== undefined)).toEqual([]);
  });
});

describe('the library: list, get, rename, samples, delete', () => {
  it('keeps prints and where they came from, never audio, and deletes them with the voice', async () => {
    const created = await enrol('Bob');
    const id = created.json.speaker_id as string;
    const listed = await server.api(key, 'GET', '/api/v1/speakers');
    expect(listed.status).toBe(200);
    expect(listed.json.map((s: { speaker_id: string }) => s.speaker_id)).toContain(id);
    const got = await server.api(key, 'GET', `/api/v1/speakers/${id}`);
    expect(got.json).toEqual(created.json);
    expect(got.json.samples[0]).toMatchObject({
      transcription_id: source,
      start: meeting.reference[0]!.start,
      end: meeting.reference[0]!.end,
    });

    const renamed = await server.api(key, 'PATCH', `/api/v1/speakers/${id}`, { name: '  Robert ' });
    expect(renamed.status).toBe(200);
    expect(renamed.json.name).toBe('Robert');

    const [first, secondSample] = created.json.samples as { sample_id: string }[];
    const changed = await server.api(key, 'PATCH', `/api/v1/speakers/${id}`, {
      remove_sample_ids: [first!.sample_id],
      add_samples: [{ transcription_id: source, start: meeting.reference[0]!.start, end: meeting.reference[0]!.end }],
    });
    expect(changed.status).toBe(200);
    expect(changed.json.samples.map((s: { sample_id: string }) => s.sample_id)).not.toContain(first!.sample_id);
    expect(changed.json.samples.map((s: { sample_id: string }) => s.sample_id)).toContain(secondSample!.sample_id);
    expect(changed.json.samples).toHaveLength(2);

    // Removing what leaves too little speech is refused, and nothing changes.
    const tooLittle = await server.api(key, 'PATCH', `/api/v1/speakers/${id}`, {
      remove_sample_ids: [secondSample!.sample_id],
    });
    expect(tooLittle.status).toBe(400);
    expect(tooLittle.json).toMatchObject({ error_code: 4009, field: 'remove_sample_ids' });
    expect((await server.api(key, 'GET', `/api/v1/speakers/${id}`)).json.samples).toHaveLength(2);

    // The stored rows are prints (numbers) with their origin; no audio is kept anywhere for them.
    const rows = await server.runtime.db.kysely
      .selectFrom('voice_prints')
      .selectAll()
      .where('voice_id', '=', id)
      .execute();
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.transcription_id).toBe(source);
      expect((JSON.parse(row.print) as unknown[]).every((x) => typeof x === 'number')).toBe(true);
    }

    const deleted = await server.api(key, 'DELETE', `/api/v1/speakers/${id}`);
    expect(deleted.status).toBe(200);
    expect((await server.api(key, 'GET', `/api/v1/speakers/${id}`)).json).toMatchObject({ error_code: 40410 });
    expect(
      await server.runtime.db.kysely.selectFrom('voice_prints').selectAll().where('voice_id', '=', id).execute(),
    ).toEqual([]);
    expect((await server.api(key, 'DELETE', `/api/v1/speakers/${id}`)).status).toBe(404);
  });

  it('keeps a voice when the transcription its samples came from is deleted (prints are not audio)', async () => {
    const otherSource = await transcribeFile(server, key, meeting.wav, { language: 'en' });
    const created = await enrol(
      'Carol',
      festivalSamples().map((s) => ({ ...s, transcription_id: otherSource })),
    );
    const deleteKey = await server.key('acme', 'admin', ['DELETE']);
    expect((await server.api(deleteKey, 'DELETE', `/api/v1/transcriptions/${otherSource}`)).status).toBe(200);
    const after = await server.api(key, 'GET', `/api/v1/speakers/${created.json.speaker_id}`);
    expect(after.status).toBe(200);
    expect(after.json.samples).toHaveLength(2);
    await server.api(key, 'DELETE', `/api/v1/speakers/${created.json.speaker_id}`);
  });
});

describe('the OpenAPI document', () => {
  it('describes the speakers operations, the Speaker schema and the upload opt-out, as extensions', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.paths['/api/v1/speakers']!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/v1/speakers/{speaker_id}']!).sort()).toEqual(['delete', 'get', 'patch']);
    for (const operations of [doc.paths['/api/v1/speakers']!, doc.paths['/api/v1/speakers/{speaker_id}']!])
      for (const operation of Object.values(operations)) expect(operation.summary).toMatch(/^Extension: /);
    expect(Object.keys(doc.components.schemas.Speaker!.properties).sort()).toEqual(
      ['created_at', 'name', 'samples', 'speaker_id', 'speech_seconds', 'team_id', 'updated_at'].sort(),
    );
    expect(JSON.stringify(doc.paths['/api/v1/transcriptions/upload'])).toContain('recognize_speakers');
  });
});

describe('bad samples and hostile requests', () => {
  it('refuses too little speech in all', async () => {
    const r = meeting.reference[0]!;
    const response = await enrol('Short', [{ transcription_id: source, start: r.start, end: r.start + 1 }]);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({ error_code: 4009, field: 'samples' });
    expect(response.json.error_message).toMatch(/at least 3 seconds of speech/);
  });

  it('refuses a sample outside the recording, or ending before it starts', async () => {
    const duration = (await server.api(key, 'GET', `/api/v1/transcriptions/${source}`)).json.duration as number;
    const past = await enrol('Past', [{ transcription_id: source, start: duration - 1, end: duration + 5 }]);
    expect(past.status).toBe(400);
    expect(past.json).toMatchObject({ error_code: 4009, field: 'samples.0.end' });
    expect(past.json.error_message).toMatch(/past the end/);
    const backwards = await enrol('Backwards', [{ transcription_id: source, start: 4, end: 2 }]);
    expect(backwards.json).toMatchObject({ error_code: 4009, field: 'samples.0.end' });
  });

  it("answers another team's transcription and another team's speaker as unknown", async () => {
    const response = await enrol(
      'Eve',
      festivalSamples().map((s) => ({ ...s, transcription_id: theirs })),
    );
    expect(response.status).toBe(404);
    expect(response.json).toMatchObject({ error_code: 4041, field: 'samples.0.transcription_id' });

    const mine = await enrol('Dave');
    const id = mine.json.speaker_id as string;
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'Stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await server.api(otherKey, method, `/api/v1/speakers/${id}`, body);
      expect(answer.status).toBe(404);
      expect(answer.json.error_code).toBe(40410);
    }
    expect(
      (await server.api(otherKey, 'GET', '/api/v1/speakers')).json.map((s: { name: string }) => s.name),
    ).not.toContain('Dave');
    expect((await server.api(key, 'GET', `/api/v1/speakers/${id}`)).json.name).toBe('Dave');
    // A sample of the other team's transcription cannot be added to one's own voice either.
    const added = await server.api(key, 'PATCH', `/api/v1/speakers/${id}`, {
      add_samples: [{ transcription_id: theirs, start: 0, end: 2 }],
    });
    expect(added.json).toMatchObject({ error_code: 4041, field: 'add_samples.0.transcription_id' });
    await server.api(key, 'DELETE', `/api/v1/speakers/${id}`);
  });

  it('refuses malformed, oversized and overlong bodies', async () => {
    const sample = festivalSamples()[0]!;
    const malformed = await rawRequest(server, key, 'POST', '/api/v1/speakers', '{"name": "x", "samples": [');
    expect(malformed.status).toBe(400);
    expect(malformed.json.error_code).toBe(4001);
    const cases: [unknown, string | undefined][] = [
      [{ samples: [sample] }, 'name'],
      [{ name: 'A'.repeat(101), samples: [sample] }, 'name'],
      [{ name: '   ', samples: [sample] }, 'name'],
      [{ name: 'A', samples: [] }, 'samples'],
      [{ name: 'A', samples: Array.from({ length: 21 }, () => sample) }, 'samples'],
      [{ name: 'A', samples: [{ ...sample, start: -1 }] }, 'samples.0.start'],
      [{ name: 'A', samples: [{ ...sample, start: '0' }] }, 'samples.0.start'],
      [{ name: 'A', samples: [{ ...sample, audio: 'AAAA' }] }, 'samples.0.audio'],
      [{ name: 'A', samples: [sample], colour: 'red' }, 'colour'],
      [[], undefined],
    ];
    for (const [body, field] of cases) {
      const response = await server.api(key, 'POST', '/api/v1/speakers', body);
      expect({ body, status: response.status, code: response.json.error_code }).toEqual({
        body,
        status: 400,
        code: 4000,
      });
      if (field) expect(response.json.field).toBe(field);
    }
    const long = await enrol('Long', [{ transcription_id: source, start: 0, end: 400 }]);
    expect(long.json).toMatchObject({ error_code: 4009, field: 'samples.0.end' });
    const unknownSample = await server.api(key, 'PATCH', '/api/v1/speakers/nope', { remove_sample_ids: ['x'] });
    expect(unknownSample.json.error_code).toBe(40410);
    expect((await server.api(key, 'GET', '/api/v1/speakers')).json.map((s: { name: string }) => s.name)).toEqual([]);
  });

  it("refuses a voice past the team's limit, also when enrolments race, and leaves other teams free", async () => {
    const ids: string[] = [];
    try {
      for (let i = 0; i < VOICE_LIMIT - 1; i++) ids.push((await enrol(`Voice ${i}`)).json.speaker_id);
      // Three at once for the last place: one gets it, the others are told why and what to do.
      const racing = await Promise.all(['Race 1', 'Race 2', 'Race 3'].map((name) => enrol(name)));
      for (const r of racing) if (r.status === 200) ids.push(r.json.speaker_id);
      expect(racing.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      const refused = racing.find((r) => r.status === 409)!;
      expect(refused.json).toMatchObject({ error_code: 40910, error_id: expect.any(String) });
      expect(refused.json.error_message).toMatch(/voice library already holds 3 voices.*Delete voices/);
      // Full: refused before any audio is decoded, whatever the samples say.
      const full = await enrol('Late', [{ transcription_id: 'not-a-transcription', start: 0, end: 5 }]);
      expect(full.json.error_code).toBe(40910);
      expect((await server.api(key, 'GET', '/api/v1/speakers')).json).toHaveLength(VOICE_LIMIT);
      // Another team's library is its own, and a deleted voice frees its place.
      const theirsVoice = await enrol(
        'Theirs',
        festivalSamples().map((s) => ({ ...s, transcription_id: theirs })),
        otherKey,
      );
      expect(theirsVoice.status).toBe(200);
      await server.api(otherKey, 'DELETE', `/api/v1/speakers/${theirsVoice.json.speaker_id}`);
      await server.api(key, 'DELETE', `/api/v1/speakers/${ids.pop()!}`);
      const again = await enrol('Again');
      expect(again.status).toBe(200);
      ids.push(again.json.speaker_id);
    } finally {
      for (const id of ids) await server.api(key, 'DELETE', `/api/v1/speakers/${id}`);
    }
  });
});
