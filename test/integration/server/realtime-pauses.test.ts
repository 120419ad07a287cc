// A pause inside a live turn (shorter than the turn's silence duration): the decoder's utterance ends at the
// pause, so its final passes run while the rest of the silence is awaited, and the speech after the pause is
// the next utterance of the same turn (decision 0063). Real pocketsphinx and Silero VAD on synthesized speech;
// the recognizer is wrapped only to record which utterances it was asked for.
import { execFile } from 'node:child_process';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfiguredEngineRegistry } from '../../../src-server/engines/engine-registry.js';
import { PocketsphinxEngine } from '../../../src-server/engines/speech/pocketsphinx-engine.js';
import type {
  RecognizeRequest,
  RecognizeResult,
  SpeechEngine,
} from '../../../src-server/engines/speech/speech-engine.js';
import type {
  RecognitionStream,
  StreamingRecognizer,
  StreamOptions,
} from '../../../src-server/engines/speech/streaming-recognizer.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { realtimeClient, transcriptionUpdate } from '../../support/realtime-client.js';
import { startTestServer, tempDir, type TestServer } from '../../support/test-server.js';

const run = promisify(execFile);
const RATE = 16000;

/** What a live stream was asked to do: utterances started (at their offset in seconds) and ended. */
type Call = { start: number } | 'end';

/** The real engine, its live streams recording the utterances they decode. */
class RecordingPocketsphinx implements SpeechEngine, StreamingRecognizer {
  readonly calls: Call[] = [];
  constructor(private readonly engine: PocketsphinxEngine) {}
  get name() {
    return this.engine.name;
  }
  get capabilities() {
    return this.engine.capabilities;
  }
  get liveLanguages() {
    return this.engine.liveLanguages;
  }
  get liveModel() {
    return this.engine.liveModel;
  }
  recognize(request: RecognizeRequest): Promise<RecognizeResult> {
    return this.engine.recognize(request);
  }
  async openStream(options: StreamOptions): Promise<RecognitionStream> {
    const stream = await this.engine.openStream(options);
    const calls = this.calls;
    return {
      startUtterance(offset) {
        calls.push({ start: offset });
        stream.startUtterance(offset);
      },
      feed: (samples) => stream.feed(samples),
      partial: () => stream.partial(),
      endUtterance() {
        calls.push('end');
        return stream.endUtterance();
      },
      close: () => stream.close(),
    };
  }
}

/** 16 kHz PCM of a phrase, its leading and trailing silence trimmed (so the pauses are the test's). */
async function phrase(text: string): Promise<Buffer> {
  const out = path.join(tempDir(), `${text.replace(/\W+/g, '-')}.raw`);
  const trim = ['silence', '1', '0.03', '0.5%', 'reverse', 'silence', '1', '0.03', '0.5%', 'reverse'];
  const raw = ['-t', 'raw', '-r', String(RATE), '-c', '1', '-b', '16', '-e', 'signed-integer', '-L'];
  await run('sox', [await synthesizeSpeech(text), ...raw, out, ...trim]);
  return fsp.readFile(out);
}

const silence = (seconds: number) => Buffer.alloc(Math.round(seconds * RATE) * 2);
const seconds = (pcm: Buffer) => pcm.length / 2 / RATE;

let server: TestServer;
let key: string;
const engine = new RecordingPocketsphinx(new PocketsphinxEngine());

beforeAll(async () => {
  server = await startTestServer({
    runtime: {
      engines: new ConfiguredEngineRegistry([engine], { default: engine.name, 'diarization-high': engine.name }),
    },
  });
  key = await server.key('acme');
});
afterAll(async () => {
  await server?.close();
});

describe('a pause inside a live turn', () => {
  it('ends the decoder utterance at the pause and decodes the speech after it as the next utterance of the same turn', async () => {
    const [first, second] = await Promise.all([
      phrase('the budget meeting moved to next week'),
      phrase('please remember to lock the door'),
    ]);
    // 0.4 s between the phrases: past the early end (250 ms of the 500 ms silence), short of the turn's end.
    const lead = 0.5;
    const pause = 0.4;
    const audio = Buffer.concat([silence(lead), first, silence(pause), second, silence(1.5)]);
    const client = realtimeClient(server.url, { authorization: `Bearer ${key}` });
    await new Promise((resolve) => client.socket.once('open', resolve));
    client.send(
      transcriptionUpdate({
        turnDetection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 500 },
      }),
    );
    await client.inbox.ofType('session.updated');
    const chunk = (RATE / 10) * 2;
    for (let at = 0; at < audio.length; at += chunk)
      client.send({ type: 'input_audio_buffer.append', audio: audio.subarray(at, at + chunk).toString('base64') });
    const completed = await client.inbox.ofType('conversation.item.input_audio_transcription.completed');
    client.socket.close();

    // One turn holds both phrases.
    const types = client.inbox.events.map((e) => e.type);
    expect(types.filter((t) => t === 'input_audio_buffer.speech_started')).toHaveLength(1);
    expect(completed.transcript).toMatch(/budget/);
    expect(completed.transcript).toMatch(/door/);
    // ...decoded as utterances that each ended before the next began, one of them starting in the pause.
    const starts = engine.calls.flatMap((c) => (c === 'end' ? [] : [c.start]));
    expect(engine.calls.filter((c) => c === 'end')).toHaveLength(starts.length);
    engine.calls.forEach((c, i) => expect(c === 'end').toBe(i % 2 === 1));
    const pauseStart = lead + seconds(first);
    expect(starts.some((s) => s >= pauseStart && s <= pauseStart + pause)).toBe(true);
    // Word times stay in the session's audio across the utterances.
    const words = completed.words as { word: string; start: number; end: number }[];
    for (const [i, w] of words.entries()) if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.end - 0.001);
    expect(words.find((w) => w.word === 'door')!.start).toBeGreaterThan(pauseStart + pause);
  });
});
