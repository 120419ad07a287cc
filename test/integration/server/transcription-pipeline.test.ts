// The whole pipeline over real HTTP: real speech audio, ffmpeg, pocketsphinx, SQLite and files.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { audioDuration, concatWithSilence, makeCorruptFile, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { listJobs } from '../../support/test-jobs.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';

let server: TestServer;
let key: string;
let meetingWav: string;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme', 'alice', ['DELETE']);
  const first = await synthesizeSpeech('please send the report to the marketing team by friday');
  const second = await synthesizeSpeech('the budget meeting moved to next week');
  meetingWav = path.join(tempDir(), 'meeting.wav');
  fs.copyFileSync(await concatWithSilence([first, second], 4), meetingWav);
});
afterAll(() => server.close());

const transcribe = (id: string) => server.api(key, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
const documentOf = async (transcriptionPath: string, format?: string) => {
  const response = await fetch(format ? `${transcriptionPath}&format=${format}` : transcriptionPath);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
};

describe('transcription pipeline', () => {
  let id: string;
  let completed: any;
  let document: TranscriptDocument;

  it('refuses to start before the audio is uploaded', async () => {
    const ticket = await server.api(key, 'POST', '/api/v1/transcriptions/upload', { filename: 'early.wav' });
    const response = await transcribe(ticket.json.transcription_id);
    expect(response.status).toBe(409);
    expect(response.json.error_code).toBe(ErrorCode.UPLOAD_NOT_COMPLETE);
  });

  it('runs CONVERTING -> IN_PROGRESS -> COMPLETED on real speech, with forced replacements', async () => {
    const dictionary = await server.api(key, 'POST', '/api/v1/dictionaries', { name: 'Team names' });
    await server.api(key, 'POST', `/api/v1/dictionaries/${dictionary.json.dictionary_id}/blacklist_words`, {
      pattern: 'marketing team',
      replacement: 'Growth Squad',
    });
    const ticket = await uploadFile(server, key, meetingWav, {
      dictionary_id: dictionary.json.dictionary_id,
      language: 'en',
    });
    id = ticket.transcription_id;

    const started = await transcribe(id);
    expect(started.status).toBe(200);
    expect(['CONVERTING', 'IN_PROGRESS']).toContain(started.json.status);
    // A second call while running starts nothing new and answers the current record.
    const again = await transcribe(id);
    expect(again.status).toBe(200);
    expect(await listJobs(server, { payloadContains: id })).toHaveLength(1);

    completed = (await waitForStatus(server, key, id, ['COMPLETED', 'FAILED'])).json;
    expect(completed.failure_reason).toBeNull();
    expect(completed.status).toBe('COMPLETED');
    expect(completed.engine).toMatch(/^pocketsphinx\//);
    expect(completed.transcription_model).toBe(completed.engine);
    expect(completed.requested_model).toBe('default');
    expect(completed.transcription_path).toContain('/files/transcript/');

    const json = await documentOf(completed.transcription_path);
    expect(json.status).toBe(200);
    expect(json.type).toContain('application/json');
    document = JSON.parse(json.text);
  });

  it('reports speaking_duration as detected speech, shorter than the file', () => {
    expect(document.duration).toBeGreaterThan(7);
    expect(completed.speaking_duration).toBeGreaterThan(2);
    expect(completed.speaking_duration).toBeLessThan(document.duration - 2.5);
    expect(document.speaking_duration).toBe(completed.speaking_duration);
  });

  it('produces a transcript document with timed words and the engine that ran', () => {
    expect(document).toMatchObject({
      transcription_id: id,
      language: 'en',
      engine: { name: 'pocketsphinx', transcription_model: 'default' },
    });
    expect(document.text).toMatch(/report/);
    expect(document.text).toMatch(/budget|meeting/);
    expect(document.segments.length).toBeGreaterThanOrEqual(2);
    let previousEnd = 0;
    for (const segment of document.segments) {
      expect(segment.text).toBe(segment.words.map((w) => w.word).join(' '));
      for (const word of segment.words) {
        expect(word.start).toBeGreaterThanOrEqual(previousEnd - 1e-6);
        expect(word.end).toBeGreaterThanOrEqual(word.start);
        expect(word.end).toBeLessThanOrEqual(document.duration + 0.01);
        previousEnd = word.end;
      }
    }
  });

  it('applies forced replacements whole-word and shows them in the document', () => {
    expect(document.text).toContain('Growth Squad');
    expect(document.text).not.toMatch(/marketing team/i);
    expect(document.replacements).toEqual([
      { pattern: 'marketing team', replacement: 'Growth Squad', count: 1, segment_ids: [expect.any(Number)] },
    ]);
  });

  it('serves the transcript as SRT, WebVTT and text', async () => {
    const srt = await documentOf(completed.transcription_path, 'srt');
    expect(srt.type).toContain('application/x-subrip');
    expect(srt.text).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}/);
    const vtt = await documentOf(completed.transcription_path, 'vtt');
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);
    expect(vtt.text).toContain('Growth Squad');
    const txt = await documentOf(completed.transcription_path, 'txt');
    expect(txt.text.trim().split('\n')).toHaveLength(document.segments.filter((s) => s.text).length);
    const bad = await documentOf(completed.transcription_path, 'docx');
    expect(bad.status).toBe(400);
  });

  it('answers 409 to transcribe once the transcription has ended', async () => {
    const response = await transcribe(id);
    expect(response.status).toBe(409);
    expect(response.json.error_code).toBe(ErrorCode.TRANSCRIPTION_ALREADY_ENDED);
  });

  it('stores and returns a review of the completed transcription', async () => {
    const route = `/api/v1/transcriptions/${id}/review`;
    expect((await server.api(key, 'GET', route)).json.error_code).toBe(ErrorCode.REVIEW_NOT_FOUND);
    const saved = await server.api(key, 'POST', route, {
      reviewed_text: 'Please send the report to the Growth Squad by Friday.',
    });
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({
      transcription_id: id,
      reviewed_text: 'Please send the report to the Growth Squad by Friday.',
    });
    await server.api(key, 'POST', route, { reviewed_text: 'second version' });
    expect((await server.api(key, 'GET', route)).json.reviewed_text).toBe('second version');
    expect((await server.api(key, 'POST', route, { reviewed_text: 7 })).status).toBe(400);
    expect((await server.api(key, 'POST', route, {})).status).toBe(400);
  });

  it('deletes the record with its audio, transcript and review', async () => {
    // The stored objects, on either storage (files under the data dir, or S3).
    const { storage } = server.runtime.ctx;
    const audioKey = (await server.runtime.ctx.transcriptions.getById(id))?.audioKey;
    const transcriptKey = `transcripts/${id}.json`;
    expect(audioKey).toBeTruthy();
    expect(await storage.stat(audioKey!)).not.toBeNull();
    expect(await storage.stat(transcriptKey)).not.toBeNull();
    const deleted = await server.api(key, 'DELETE', `/api/v1/transcriptions/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.text).toBe('');
    expect(await storage.stat(audioKey!)).toBeNull();
    expect(await storage.stat(transcriptKey)).toBeNull();
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${id}`)).status).toBe(404);
    expect((await server.api(key, 'GET', `/api/v1/transcriptions/${id}/review`)).status).toBe(404);
    expect((await fetch(completed.audio_path)).status).toBe(404);
    expect(
      await server.runtime.db.kysely
        .selectFrom('reviews')
        .select('transcription_id')
        .where('transcription_id', '=', id)
        .execute(),
    ).toEqual([]);
  });
});

describe('speaker separation', () => {
  it('labels who spoke when, honouring num_speakers', async () => {
    // Two clearly different voices taking turns: festival's female HTS voice and espeak-ng's male voice.
    const a1 = await synthesizeSpeech('the quarterly numbers look strong this time', undefined, { voice: 'festival' });
    const b1 = await synthesizeSpeech('i agree and the costs went down as well', undefined, { voice: 'espeak' });
    const a2 = await synthesizeSpeech('then we should hire two more engineers', undefined, { voice: 'festival' });
    const b2 = await synthesizeSpeech('let us talk about that next week', undefined, { voice: 'espeak' });
    const dialogue = path.join(tempDir(), 'dialogue.wav');
    fs.copyFileSync(await concatWithSilence([a1, b1, a2, b2], 1), dialogue);
    const ticket = await uploadFile(server, key, dialogue, {
      num_speakers: '2',
      transcription_model: 'diarization-high',
    });
    await transcribe(ticket.transcription_id);
    const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.failure_reason).toBeNull();
    expect(done.json.transcription_model).toMatch(/\+embedded-mfcc$/);
    const document: TranscriptDocument = await (await fetch(done.json.transcription_path)).json();
    expect(document.engine.speakers).toBe('embedded-mfcc');
    const speakers = new Set(document.segments.map((s) => s.speaker));
    expect([...speakers].sort()).toEqual(['SPEAKER_1', 'SPEAKER_2']);
    // Turns alternate A, B, A, B: the segment under the middle of each turn carries that turn's speaker.
    const lengths = await Promise.all([a1, b1, a2, b2].map(audioDuration));
    let offset = 0;
    const labels = lengths.map((length) => {
      const middle = offset + length / 2;
      offset += length + 1;
      return document.segments.find((s) => s.start <= middle && middle <= s.end)?.speaker;
    });
    expect(labels).toEqual(['SPEAKER_1', 'SPEAKER_2', 'SPEAKER_1', 'SPEAKER_2']);
  });
});

describe('temporary dictionaries and failures', () => {
  it('deletes the temporary dictionary once the transcription completes', async () => {
    const short = await synthesizeSpeech('the quick brown fox jumps over the lazy dog');
    const ticket = await uploadFile(server, key, short, { words: [{ word: 'Zintrix', reading: 'zin tricks' }] });
    expect((await server.api(key, 'GET', `/api/v1/dictionaries/${ticket.dictionary_id}`)).json.is_temporary).toBe(true);
    await transcribe(ticket.transcription_id);
    const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
    expect(done.json.status).toBe('COMPLETED');
    expect((await server.api(key, 'GET', `/api/v1/dictionaries/${ticket.dictionary_id}`)).status).toBe(404);
  });

  it('ends FAILED with the reason kept for a corrupt file, and drops its temporary dictionary', async () => {
    const corrupt = await makeCorruptFile(path.join(tempDir(), 'broken.wav'));
    const ticket = await uploadFile(server, key, corrupt, { words: [{ word: 'temp' }] });
    await transcribe(ticket.transcription_id);
    const failed = await waitForStatus(server, key, ticket.transcription_id, ['FAILED', 'COMPLETED']);
    expect(failed.json.status).toBe('FAILED');
    expect(failed.json.failure_reason).toMatch(/audio/i);
    // In the user's terms: the converter's name and its own words are in the log, not the reason.
    expect(failed.json.failure_reason).toBe(
      'The file is not an audio or video file this server can read. Upload a recording in a common format, e.g. WAV, MP3, M4A, FLAC, Ogg or WebM.',
    );
    expect(server.logLines.some((line) => line.includes('"detail":"ffprobe: ') && line.includes('job failed'))).toBe(
      true,
    );
    expect(failed.json.transcription_path).toBeNull();
    // Failed at once: one attempt, no retries for an input that can never succeed.
    const jobs = await listJobs(server, { payloadContains: ticket.transcription_id });
    expect(jobs.map(({ attempts, state }) => ({ attempts, state }))).toEqual([{ attempts: 1, state: 'failed' }]);
    expect((await server.api(key, 'GET', `/api/v1/dictionaries/${ticket.dictionary_id}`)).status).toBe(404);
  });
});
