// Speakers are separated by default (decision 0057): an upload with transcription_model "default" and no
// speaker count comes back labelled, with the count found automatically: two voices in a meeting whose
// turns follow each other too closely for the recognizer to cut between them (a segment spanning a change
// of speaker is split at the word where the voice changes), and one label, not two, for one real person
// (Debian's pocketsphinx test recordings).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { SileroVad } from '../../../src-server/engines/vad/silero-vad.js';
import { concatWithSilence, pcmOf } from '../../support/audio-fixtures.js';
import { startTestServer, tempDir, uploadFile, waitForStatus, type TestServer } from '../../support/test-server.js';
import { MEETING_TURNS, twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

let server: TestServer;
let key: string;
let meeting: TwoVoiceMeeting;

beforeAll(async () => {
  server = await startTestServer();
  key = await server.key('acme');
  meeting = await twoVoiceMeeting();
});
afterAll(() => server.close());

async function transcribeDefault(file: string): Promise<TranscriptDocument> {
  const ticket = await uploadFile(server, key, file, { language: 'en' });
  await server.api(key, 'POST', `/api/v1/transcriptions/${ticket.transcription_id}/transcribe`);
  const done = await waitForStatus(server, key, ticket.transcription_id, ['COMPLETED', 'FAILED']);
  expect(done.json.failure_reason).toBeNull();
  expect(done.json.requested_model).toBe('default');
  expect(done.json.transcription_model).toMatch(/\+embedded-mfcc$/);
  return (await fetch(done.json.transcription_path)).json();
}

describe('speakers with the default model and no count', () => {
  it('labels two voices, splitting segments at the word where the voice changes', async () => {
    // The turns run into each other: fewer speech regions than turns, so the recognizer cannot cut at each.
    const regions = await new SileroVad().detect(await pcmOf(meeting.wav));
    expect(regions.length).toBeLessThan(MEETING_TURNS.length);

    const document = await transcribeDefault(meeting.wav);
    expect(document.engine.speakers).toBe('embedded-mfcc');
    expect(new Set(document.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1', 'SPEAKER_2']));
    const label = { festival: 'SPEAKER_1', espeak: 'SPEAKER_2' } as Record<string, string>;
    // Every word well inside a turn (0.3 s from its edges) is in a segment of that turn's voice.
    let checked = 0;
    for (const segment of document.segments) {
      for (const word of segment.words) {
        const middle = (word.start + word.end) / 2;
        const turn = meeting.reference.find((r) => middle > r.start + 0.3 && middle < r.end - 0.3);
        if (!turn) continue;
        checked++;
        expect({ word: word.word, at: word.start, speaker: segment.speaker }).toEqual({
          word: word.word,
          at: word.start,
          speaker: label[turn.voice],
        });
      }
    }
    expect(checked).toBeGreaterThan(12);
    // Segments are split only where the speaker changes: neighbours of one speaker and no pause stay one segment.
    for (const [i, segment] of document.segments.entries()) {
      const next = document.segments[i + 1];
      if (next && next.start - segment.end < 0.1) expect(next.speaker).not.toBe(segment.speaker);
      expect(segment.text).toBe(segment.words.map((w) => w.word).join(' '));
    }
  });

  it('gives one real speaker one label', async () => {
    const recordings = ['0870', '0890', '0920'].map((n) => `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-${n}.wav`);
    const alone = path.join(tempDir(), 'one-reader.wav');
    fs.copyFileSync(await concatWithSilence(recordings, 0.6), alone);
    const document = await transcribeDefault(alone);
    expect(document.segments.length).toBeGreaterThan(1);
    expect(new Set(document.segments.map((s) => s.speaker))).toEqual(new Set(['SPEAKER_1']));
  });
});
