// Live turns named from the team's voice library (decision 0063, issue 25/26) over real /v1/realtime and
// real HTTP: a voice enrolled from a transcription of two generated voices names that voice's live turns
// and only those; `recognize_speakers: false` and another team's session name nothing; a bad value is an
// error event and changes nothing.
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeClient, transcriptionUpdate, type RealtimeEvent } from '../../support/realtime-client.js';
import { startTestServer, tempDir, transcribeFile, type TestServer } from '../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

const run = promisify(execFile);

let server: TestServer;
let key: string;
let otherKey: string;
let meeting: TwoVoiceMeeting;
let aliceId: string;
/** Each voice's two sentences as one turn of 16 kHz PCM16. */
let festivalTurn: Buffer;
let espeakTurn: Buffer;

async function pcm16k(files: string[], name: string): Promise<Buffer> {
  const out = path.join(tempDir(), `${name}.raw`);
  await run('sox', [...files, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L', out]);
  return fsp.readFile(out);
}

beforeAll(async () => {
  server = await startTestServer({ env: { KIKITORI_ENGINE_DEFAULT: 'pocketsphinx' } });
  [key, otherKey] = await Promise.all([server.key('acme'), server.key('globex')]);
  meeting = await twoVoiceMeeting();
  const source = await transcribeFile(server, key, meeting.wav, { language: 'en' });
  const festival = meeting.reference.filter((r) => r.voice === 'festival');
  const enrolled = await server.api(key, 'POST', '/api/v1/speakers', {
    name: 'Alice',
    samples: festival.map((r) => ({ transcription_id: source, start: r.start, end: r.end })),
  });
  expect(enrolled.status).toBe(200);
  aliceId = enrolled.json.speaker_id;
  festivalTurn = await pcm16k([meeting.parts[0]!, meeting.parts[2]!], 'festival');
  espeakTurn = await pcm16k([meeting.parts[1]!, meeting.parts[3]!], 'espeak');
});
afterAll(async () => {
  await server?.close();
});

/** A session at 16 kHz whose turns the client commits, with `extra` in its update. */
async function session(apiKey: string, extra: Record<string, unknown> = {}) {
  const client = realtimeClient(server.url, { authorization: `Bearer ${apiKey}` });
  await client.inbox.ofType('session.created');
  client.send(transcriptionUpdate({ language: 'en', turnDetection: null, extra }));
  const updated = await client.inbox.ofType('session.updated');
  let completed = 0;
  /** Sends one turn in half-second appends, commits it, and answers its `.completed`. */
  const turn = async (pcm: Buffer): Promise<RealtimeEvent> => {
    for (let at = 0; at < pcm.length; at += 16000)
      client.send({ type: 'input_audio_buffer.append', audio: pcm.subarray(at, at + 16000).toString('base64') });
    client.send({ type: 'input_audio_buffer.commit' });
    const nth = ++completed;
    let seen = 0;
    return client.inbox.next(
      (e) => e.type === 'conversation.item.input_audio_transcription.completed' && ++seen === nth,
    );
  };
  return { client, updated, turn };
}

describe('live turns named from the voice library', () => {
  it('names the enrolled voice’s turn, and not the other voice’s', async () => {
    const { client, updated, turn } = await session(key);
    expect(updated.session.recognize_speakers).toBe(true);
    const alice = await turn(festivalTurn);
    const other = await turn(espeakTurn);
    client.socket.close();
    expect(alice.transcript.length).toBeGreaterThan(0);
    expect(alice).toMatchObject({ speaker_id: aliceId, speaker_name: 'Alice' });
    expect(alice.speaker_confidence).toBeGreaterThanOrEqual(0.5);
    expect(alice.speaker_confidence).toBeLessThanOrEqual(1);
    expect(other.transcript.length).toBeGreaterThan(0);
    expect(other).not.toHaveProperty('speaker_name');
    expect(other).not.toHaveProperty('speaker_id');
    // No turn's audio is left in the work dir.
    const work = await fsp.readdir(path.join(server.dataDir, 'work')).catch(() => []);
    expect(work.filter((f) => f.startsWith('live-'))).toEqual([]);
  });

  it('recognize_speakers: false names nobody, and is shown in the session', async () => {
    const { client, updated, turn } = await session(key, { recognize_speakers: false });
    expect(updated.session.recognize_speakers).toBe(false);
    const alice = await turn(festivalTurn);
    client.socket.close();
    expect(alice.transcript.length).toBeGreaterThan(0);
    expect(alice).not.toHaveProperty('speaker_name');
  });

  it('another team’s session never hears of the voice', async () => {
    const { client, turn } = await session(otherKey);
    const alice = await turn(festivalTurn);
    client.socket.close();
    expect(alice.transcript.length).toBeGreaterThan(0);
    expect(alice).not.toHaveProperty('speaker_name');
    expect(JSON.stringify(client.inbox.events)).not.toContain(aliceId);
  });

  it('a recognize_speakers that is not a boolean is an error event, and the session keeps naming', async () => {
    const { client, turn } = await session(key);
    for (const value of ['yes', 1, null, { on: true }]) {
      const from = client.inbox.events.length;
      client.send({ type: 'session.update', session: { type: 'transcription', recognize_speakers: value } });
      const error = await client.inbox.next((e) => e.type === 'error', from);
      expect(error.error, JSON.stringify(value)).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_value',
        param: 'session.recognize_speakers',
      });
    }
    const alice = await turn(festivalTurn);
    client.socket.close();
    expect(alice).toMatchObject({ speaker_name: 'Alice' });
  });
});
