// response_format=diarized_json on POST /v1/audio/transcriptions, in the shape of OpenAI's
// gpt-4o-transcribe-diarize (TranscriptionDiarized in the `openai` package), through the official client:
// segments of { type, id, start, end, text, speaker } with speakers A, B, ... in order of first appearance,
// separated without a count; known_speaker_names[] / known_speaker_references[] checked (decision 0057) and
// honoured: a name labels the speaker its library voice (0065) or its clip's print (0092) is recognized as;
// bad combinations refused in OpenAI's error body.
import fs from 'node:fs';
import OpenAI, { BadRequestError } from 'openai';
import type { TranscriptionDiarized } from 'openai/resources/audio/transcriptions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postTranscription, startOpenAiTestServer } from '../../support/openai-test-server.js';
import { audioDuration, concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { transcribeFile, type TestServer } from '../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

let server: TestServer;
let key: string;
let client: OpenAI;
let meeting: TwoVoiceMeeting;
/** A data URL of festival's voice alone (the first turn). */
let festivalClip: string;
/** Data URLs of other recordings (other sentences) of the meeting's two voices, and of a voice not in it. */
let clips: { festival: string; espeak: string; stranger: string };

const dataUrl = (wav: string) => `data:audio/wav;base64,${fs.readFileSync(wav).toString('base64')}`;

/** A clip of `voice` saying two sentences the meeting does not have, as OpenAI's 2-10 s references. */
async function clip(voice: 'festival' | 'espeak', espeakVoice?: string): Promise<string> {
  const parts = await Promise.all(
    ['please send the minutes to everyone', 'and book the large room for friday morning'].map((text) =>
      synthesizeSpeech(text, undefined, { voice, ...(espeakVoice ? { espeakVoice } : {}) }),
    ),
  );
  return dataUrl(await concatWithSilence(parts, 0.3));
}

beforeAll(async () => {
  server = await startOpenAiTestServer();
  key = await server.key('acme');
  client = new OpenAI({ apiKey: key, baseURL: `${server.url}/v1`, maxRetries: 0 });
  meeting = await twoVoiceMeeting();
  festivalClip = dataUrl(meeting.parts[0]!);
  clips = {
    festival: await clip('festival'),
    espeak: await clip('espeak'),
    // espeak's female variant: in no turn of the meeting.
    stranger: await clip('espeak', 'en-us+f3'),
  };
});
afterAll(() => server.close());

const file = () => fs.createReadStream(meeting.wav);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** `seconds` of digital silence as a 16 kHz mono 16-bit WAV. */
function silentWav(seconds: number): Buffer {
  const data = seconds * 16000 * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** The speaker of the segment under the middle of each turn. */
function turnSpeakers(answer: TranscriptionDiarized): (string | undefined)[] {
  return meeting.reference.map(({ start, end }) => {
    const middle = (start + end) / 2;
    return answer.segments.find((s) => s.start <= middle && middle <= s.end)?.speaker;
  });
}

describe('diarized_json through the official openai client', () => {
  it("answers in OpenAI's diarized shape, speakers A and B found without a count", async () => {
    const answer = (await client.audio.transcriptions.create({
      file: file(),
      model: 'gpt-4o-transcribe-diarize',
      language: 'en',
      response_format: 'diarized_json',
    })) as unknown as TranscriptionDiarized;
    expect(Object.keys(answer).sort()).toEqual(['duration', 'segments', 'task', 'text', 'usage']);
    expect(answer.task).toBe('transcribe');
    expect(answer.duration).toBeGreaterThan(9);
    expect(answer.usage).toEqual({ type: 'duration', seconds: Math.ceil(answer.duration) });
    expect(answer.text).toMatch(/quarterly numbers/);
    expect(answer.segments.length).toBeGreaterThanOrEqual(4);
    for (const [i, segment] of answer.segments.entries()) {
      expect(Object.keys(segment).sort()).toEqual(['end', 'id', 'speaker', 'start', 'text', 'type']);
      expect(segment).toMatchObject({ type: 'transcript.text.segment', id: `seg_${i}` });
      expect(segment.end).toBeGreaterThan(segment.start);
    }
    expect(answer.text).toBe(answer.segments.map((s) => s.text).join(' '));
    expect(turnSpeakers(answer)).toEqual(['A', 'B', 'A', 'B']);
  });

  it('runs the enhanced separation for diarization-high and honours num_speakers', async () => {
    const answer = (await client.audio.transcriptions.create({
      file: file(),
      model: 'diarization-high',
      language: 'en',
      response_format: 'diarized_json',
      // Kikitori's extension field, as an extra body field.
      ...({ num_speakers: 2 } as object),
    })) as unknown as TranscriptionDiarized;
    expect(new Set(answer.segments.map((s) => s.speaker))).toEqual(new Set(['A', 'B']));
    expect(turnSpeakers(answer)).toEqual(['A', 'B', 'A', 'B']);
  });
});

describe('known speakers from their reference clips (decision 0092)', () => {
  const diarized = { model: 'gpt-4o-transcribe-diarize', language: 'en', response_format: 'diarized_json' as const };

  it('labels each speaker its reference clip matches, from other recordings of the voices', async () => {
    const answer = (await client.audio.transcriptions.create({
      file: file(),
      ...diarized,
      known_speaker_names: ['customer', 'agent'],
      known_speaker_references: [clips.espeak, clips.festival],
    })) as unknown as TranscriptionDiarized;
    expect(turnSpeakers(answer)).toEqual(['agent', 'customer', 'agent', 'customer']);
  }, 120_000);

  it('names nobody after a reference of a voice that is not in the file, alone or beside one that is', async () => {
    const alone = (await client.audio.transcriptions.create({
      file: file(),
      ...diarized,
      known_speaker_names: ['visitor'],
      known_speaker_references: [clips.stranger],
    })) as unknown as TranscriptionDiarized;
    expect(turnSpeakers(alone)).toEqual(['A', 'B', 'A', 'B']);

    const beside = (await client.audio.transcriptions.create({
      file: file(),
      ...diarized,
      known_speaker_names: ['visitor', 'agent'],
      known_speaker_references: [clips.stranger, clips.festival],
    })) as unknown as TranscriptionDiarized;
    expect(turnSpeakers(beside)).toEqual(['agent', 'A', 'agent', 'A']);
  }, 120_000);

  it('names nobody after a reference without enough speech (silence)', async () => {
    const silence = `data:audio/wav;base64,${silentWav(3).toString('base64')}`;
    const answer = (await client.audio.transcriptions.create({
      file: file(),
      ...diarized,
      known_speaker_names: ['agent'],
      known_speaker_references: [silence],
    })) as unknown as TranscriptionDiarized;
    expect(turnSpeakers(answer)).toEqual(['A', 'B', 'A', 'B']);
  }, 120_000);

  it('refuses a reference that is a data URL of bytes that are not audio, naming the field', async () => {
    const garbage = `data:audio/wav;base64,${Buffer.from('RIFF'.padEnd(4000, 'x')).toString('base64')}`;
    const error = await failure(
      client.audio.transcriptions.create({
        file: file(),
        ...diarized,
        known_speaker_names: ['agent', 'customer'],
        known_speaker_references: [clips.festival, garbage],
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'known_speaker_references[]', code: 'validation_failed' });
    expect((error as BadRequestError).message).toMatch(/reference 2 \(for "customer"\) could not be read as audio/);
  }, 120_000);
});

describe("known speakers from the team's voice library (decision 0065)", () => {
  it('labels the speaker recognized as a voice of that name with the name as sent, the others A, B, ...', async () => {
    // The voice enrolled from another recording of festival's voice, other sentences.
    const alone = await concatWithSilence(
      await Promise.all(
        ['please send the minutes to everyone', 'and book the large room for friday morning'].map((text) =>
          synthesizeSpeech(text, undefined, { voice: 'festival' }),
        ),
      ),
      0.5,
    );
    const source = await transcribeFile(server, key, alone, { language: 'en' });
    const enrolled = await server.api(key, 'POST', '/api/v1/speakers', {
      name: 'Agent',
      samples: [{ transcription_id: source, start: 0, end: await audioDuration(alone) }],
    });
    expect(enrolled.status).toBe(200);
    // What the request stores, seen at the storage it writes to (the objects go when the request ends).
    const storage = server.runtime.ctx.storage;
    const put = storage.put.bind(storage);
    const stored: string[] = [];
    storage.put = (key, ...rest) => {
      stored.push(key);
      return put(key, ...rest);
    };
    try {
      const answer = (await client.audio.transcriptions.create({
        file: file(),
        model: 'gpt-4o-transcribe-diarize',
        language: 'en',
        response_format: 'diarized_json',
        // "agent" is a voice of the library: its clip is not needed (a stranger's here, to show it is not used).
        // "visitor" is not: its clip, of a voice not in the file, names nobody.
        known_speaker_names: [' agent ', 'visitor'],
        known_speaker_references: [clips.stranger, clips.stranger],
      })) as unknown as TranscriptionDiarized;
      expect(turnSpeakers(answer)).toEqual(['agent', 'A', 'agent', 'A']);
      // Only the clip that is printed is stored: "agent" is recognized by the library's prints.
      expect(stored.filter((k) => /\/reference-/.test(k)).map((k) => k.replace(/^.*\//, ''))).toEqual(['reference-2']);
    } finally {
      storage.put = put;
      await server.api(key, 'DELETE', `/api/v1/speakers/${enrolled.json.speaker_id}`);
    }
    // A transcription to enrol from, then a diarized one: two recognitions on a shared machine.
  }, 300_000);
});

describe('diarized_json refuses what it cannot honour', () => {
  const diarized = { model: 'gpt-4o-transcribe-diarize', response_format: 'diarized_json' as const };

  it.each([
    ['more than four names', { names: ['a', 'b', 'c', 'd', 'e'], refs: 5 }, 'known_speaker_names[]', /at most 4/],
    ['a name without a reference', { names: ['agent', 'customer'], refs: 1 }, 'known_speaker_references[]', /one/],
    ['a reference without a name', { names: [], refs: 1 }, 'known_speaker_names[]', /one/],
    ['a name given twice', { names: ['agent', 'agent'], refs: 2 }, 'known_speaker_names[]', /twice/],
    ['an empty name', { names: [' '], refs: 1 }, 'known_speaker_names[]', /1 to 64 characters/],
  ])('refuses %s', async (_, { names, refs }, param, message) => {
    const error = await failure(
      client.audio.transcriptions.create({
        file: file(),
        ...diarized,
        known_speaker_names: names,
        known_speaker_references: Array.from({ length: refs }, () => festivalClip),
      }),
    );
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, param, type: 'invalid_request_error', code: 'validation_failed' });
    expect((error as BadRequestError).message).toMatch(message);
  });

  it.each([
    ['text, not audio', 'data:text/plain;base64,aGVsbG8='],
    ['not a data URL', 'https://example.com/alice.wav'],
    ['not base64', 'data:audio/wav;base64,%%%not-base64%%%'],
    ['empty', 'data:audio/wav;base64,'],
    ['not base64-encoded', 'data:audio/wav,RIFF'],
  ])('refuses a reference that is %s', async (_, reference) => {
    const error = await failure(
      client.audio.transcriptions.create({
        file: file(),
        ...diarized,
        known_speaker_names: ['agent'],
        known_speaker_references: [reference],
      }),
    );
    expect(error).toMatchObject({ status: 400, param: 'known_speaker_references[]', code: 'validation_failed' });
    expect((error as BadRequestError).message).toMatch(/not a base64 data URL of audio/);
  });

  it('refuses a reference over 2 MiB, and a form field over 64 KiB, without using them cut', async () => {
    const big = `data:audio/wav;base64,${Buffer.alloc(2 * 1024 * 1024 + 3000).toString('base64')}`;
    const tooBig = await postTranscription(server, key, meeting.wav, {
      ...diarized,
      'known_speaker_names[]': 'agent',
      'known_speaker_references[]': big,
    });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error).toMatchObject({ param: 'known_speaker_references[]', type: 'invalid_request_error' });
    expect(tooBig.json.error.message).toMatch(/larger than 2 MiB/);

    const longName = await postTranscription(server, key, meeting.wav, {
      ...diarized,
      'known_speaker_names[]': 'x'.repeat(70 * 1024),
      'known_speaker_references[]': festivalClip,
    });
    expect(longName.status).toBe(400);
    expect(longName.json.error).toMatchObject({ param: 'known_speaker_names[]' });
    expect(longName.json.error.message).toMatch(/too large/);
  });

  it('refuses known speakers without diarized_json, granularities with it, and diarized translations', async () => {
    const names = await failure(
      client.audio.transcriptions.create({
        file: file(),
        model: 'whisper-1',
        response_format: 'verbose_json',
        known_speaker_names: ['agent'],
        known_speaker_references: [festivalClip],
      }),
    );
    expect(names).toMatchObject({ status: 400, param: 'known_speaker_names[]' });
    expect((names as BadRequestError).message).toMatch(/is for response_format diarized_json/);

    const granularities = await failure(
      client.audio.transcriptions.create({ file: file(), ...diarized, timestamp_granularities: ['word'] }),
    );
    expect(granularities).toMatchObject({ status: 400, param: 'timestamp_granularities[]' });

    const translation = await failure(
      client.audio.translations.create({
        file: file(),
        model: 'whisper-1',
        response_format: 'diarized_json' as 'json',
      }),
    );
    expect(translation).toMatchObject({ status: 400, param: 'response_format' });
    expect((translation as BadRequestError).message).toMatch(/json, text, srt, verbose_json, vtt;/);
  });

  it('refuses a request without a key', async () => {
    const anonymous = await postTranscription(server, null, meeting.wav, { ...diarized });
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toMatchObject({ type: 'authentication_error' });
  });
});
