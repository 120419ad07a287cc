// Speaker-embedding models (decision 0097) end to end, with a generated ONNX model (test/support/onnx-model.ts)
// served over local HTTP through KIKITORI_MODEL_CATALOG, as the speech-model tests serve a generated ggml file:
// `kikitori-server models download` fetches and verifies it like a speech model and refuses a corrupt copy;
// with it installed, voices are enrolled as its embeddings and a new transcription's speakers are named
// through it (over real HTTP, with real speech).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { speakerModelManager } from '../../../src-server/models/speaker-models.js';
import {
  audioDuration,
  concatWithSilence,
  synthesizeSpeech,
  toWav16k,
  type Voice,
} from '../../support/audio-fixtures.js';
import { cli } from '../../support/cli-process.js';
import { postTranscription } from '../../support/openai-test-server.js';
import { cepstralWeights, meanProjectionModel } from '../../support/onnx-model.js';
import { startTestServer, tempDir, transcribeFile, type TestServer } from '../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

const BINS = 80;
const DIMS = 12;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let model: Buffer;
let files: { url: string; close(): Promise<void> };
let scratch: string;
let catalog: string;

beforeAll(async () => {
  model = meanProjectionModel(cepstralWeights(BINS, DIMS), BINS, DIMS).bytes;
  const served: Record<string, Buffer> = {
    '/test-speaker.onnx': model,
    // Same length, other bytes: what a damaged mirror would serve.
    '/test-speaker-corrupt.onnx': Buffer.from(model.map((b, i) => (i === model.length >> 1 ? b ^ 0xff : b))),
  };
  const server = http.createServer((req, res) => {
    const body = served[(req.url ?? '/').split('?')[0]!];
    if (!body) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  files = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  scratch = tempDir();
  catalog = path.join(scratch, 'catalog.json');
  const entry = (name: string) => ({
    name,
    file: `${name}.onnx`,
    bytes: model.length,
    sha256: sha256(model),
    multilingual: true,
    url: `${files.url}/${name}.onnx`,
    embedding: {
      input: 'feats',
      output: 'embs',
      mel_bins: BINS,
      dimensions: DIMS,
      // The generated graph averages over frames: a per-utterance mean would leave it nothing.
      normalization: 'none',
      licence: 'generated for tests',
      min_similarity: 0.8,
      ratio: 0.8,
      alone_min_similarity: 0.8,
      min_speech_seconds: 1,
    },
  });
  fs.writeFileSync(catalog, JSON.stringify({ models: [entry('test-speaker'), entry('test-speaker-corrupt')] }));
});
afterAll(async () => {
  await files.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('kikitori-server models download <speaker model>', () => {
  it('downloads and verifies a speaker model as it does a speech model, and lists it apart', async () => {
    const dataDir = tempDir();
    const env = { KIKITORI_MODEL_CATALOG: catalog };
    const download = await cli(['models', 'download', 'test-speaker', '--data-dir', dataDir], env);
    expect(download.stdout).toMatch(/Downloaded and verified .*test-speaker\.onnx/);
    expect(download.stdout).toMatch(/Voice prints and speaker recognition use it/);
    expect(sha256(fs.readFileSync(path.join(dataDir, 'models', 'test-speaker.onnx')))).toBe(sha256(model));
    const verify = await cli(['models', 'verify', 'test-speaker', '--data-dir', dataDir], env);
    expect(verify.stdout).toMatch(/^test-speaker: OK/);
    const list = await cli(['models', 'list', '--data-dir', dataDir], env);
    expect(list.stdout).toMatch(/Speaker models[^\n]*\n[^\n]*test-speaker\s[^\n]*12-dim embedding[^\n]*installed/);
    // Never offered as a speech model (GET /api/v1/models and engine `auto` read this list).
    const json = JSON.parse((await cli(['models', 'list', '--json', '--data-dir', dataDir], env)).stdout) as {
      name: string;
    }[];
    expect(json.map((m) => m.name)).not.toContain('test-speaker');
    const engines = await cli(['engines', '--data-dir', dataDir], env);
    expect(engines.stdout).toMatch(/^voice prints: speaker model test-speaker \(12-dim embeddings\)$/m);
    fs.rmSync(path.join(dataDir, 'models', 'test-speaker.onnx'));
    const without = await cli(['engines', '--data-dir', dataDir], env);
    expect(without.stdout).toMatch(/^voice prints: MFCC statistics \(no speaker model installed/m);
  });

  it('refuses a download whose checksum does not match, says so, and keeps nothing', async () => {
    const dataDir = tempDir();
    const failed = await cli(['models', 'download', 'test-speaker-corrupt', '--data-dir', dataDir], {
      KIKITORI_MODEL_CATALOG: catalog,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(
      /The downloaded speaker model "test-speaker-corrupt" is damaged \(its checksum does not match\), so it was not kept\./,
    );
    expect(fs.readdirSync(path.join(dataDir, 'models'))).toEqual([]);
  });

  it('refuses a file with the catalogue’s checksum that is not an ONNX model', async () => {
    const dataDir = tempDir();
    const notOnnx = Buffer.from('lmgg this is a ggml header, not an ONNX model');
    const other = path.join(scratch, 'not-onnx-catalog.json');
    const raw = JSON.parse(fs.readFileSync(catalog, 'utf8')) as { models: Record<string, unknown>[] };
    fs.writeFileSync(
      other,
      JSON.stringify({ models: [{ ...raw.models[0], bytes: notOnnx.length, sha256: sha256(notOnnx) }] }),
    );
    const file = path.join(scratch, 'not-onnx.onnx');
    fs.writeFileSync(file, notOnnx);
    const failed = await cli(['models', 'install', 'test-speaker', file, '--data-dir', dataDir], {
      KIKITORI_MODEL_CATALOG: other,
    }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/not a speaker model this server can load/);
    expect(fs.existsSync(path.join(dataDir, 'models', 'test-speaker.onnx'))).toBe(false);
  });
});

describe('with a speaker model installed', () => {
  let server: TestServer;
  let key: string;
  let meeting: TwoVoiceMeeting;
  let source: string;
  let second: string;
  let secondReference: { start: number; end: number; voice: Voice }[];
  const SECOND_TURNS: [Voice, string][] = [
    ['espeak', 'good morning everyone and welcome to the weekly review'],
    ['festival', 'thank you, i have three short points about the budget today'],
    ['espeak', 'please go ahead, we have about ten minutes left'],
    ['festival', 'first, travel costs went up, so we should book trains earlier'],
  ];

  beforeAll(async () => {
    server = await startTestServer({ env: { KIKITORI_MODEL_CATALOG: catalog } });
    key = await server.key('acme');
    // Downloaded by the same manager the server and the CLI use, over real HTTP.
    await speakerModelManager({ dataDir: server.dataDir, baseUrl: files.url, catalog }).download('test-speaker');
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
  });
  afterAll(() => server?.close());

  it('enrols a voice as the model’s embedding and names it in a new transcription through the model', async () => {
    const samples = meeting.reference
      .filter((r) => r.voice === 'festival')
      .map((r) => ({ transcription_id: source, start: r.start, end: r.end }));
    const created = await server.api(key, 'POST', '/api/v1/speakers', { name: 'Alice', samples });
    expect(created.status, created.text).toBe(200);
    const aliceId = created.json.speaker_id as string;
    // What is stored is the model's print (its kind names the model and its checksum), of the model's size.
    const [alice] = await server.runtime.ctx.voices.enrolled('acme');
    expect(alice!.prints.map((p) => p.kind)).toEqual([
      `embedding:test-speaker:${sha256(model).slice(0, 12)}`,
      `embedding:test-speaker:${sha256(model).slice(0, 12)}`,
    ]);
    expect(alice!.prints.every((p) => p.values.length === 1 + DIMS)).toBe(true);

    const id = await transcribeFile(server, key, second, { language: 'en' });
    const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
    const document = (await (await fetch(record.json.transcription_path)).json()) as TranscriptDocument;
    const voiceOf = (s: { start: number; end: number }) => {
      const middle = (s.start + s.end) / 2;
      return secondReference.find((r) => middle >= r.start - 0.3 && middle <= r.end + 0.3)?.voice;
    };
    let festival = 0;
    let espeak = 0;
    for (const segment of document.segments) {
      if (voiceOf(segment) === 'festival') {
        festival++;
        // Alice has only the model's prints: nothing but the model can have named her.
        expect(segment).toMatchObject({ speaker_id: aliceId, speaker_name: 'Alice' });
        expect(segment.speaker_confidence).toBeGreaterThanOrEqual(0.5);
      } else if (voiceOf(segment) === 'espeak') {
        espeak++;
        expect(segment.speaker_name).toBeUndefined();
      }
    }
    expect(festival).toBeGreaterThan(0);
    expect(espeak).toBeGreaterThan(0);
    expect((await server.api(key, 'DELETE', `/api/v1/speakers/${aliceId}`)).status).toBe(200);
  });

  it('prints a reference clip on the OpenAI route with the model and names its voice in diarized_json', async () => {
    // festival's voice saying sentences the meeting does not have, as OpenAI's 2-10 s reference.
    const parts = await Promise.all(
      ['please send the minutes to everyone', 'and book the large room for friday morning'].map((text) =>
        synthesizeSpeech(text, undefined, { voice: 'festival' }),
      ),
    );
    const clip = `data:audio/wav;base64,${fs.readFileSync(await concatWithSilence(parts, 0.3)).toString('base64')}`;
    const response = await postTranscription(server, key, meeting.wav, {
      model: 'gpt-4o-transcribe-diarize',
      language: 'en',
      response_format: 'diarized_json',
      'known_speaker_names[]': ['agent'],
      'known_speaker_references[]': [clip],
    });
    expect(response.status, response.text).toBe(200);
    const segments = response.json.segments as { start: number; end: number; speaker: string }[];
    const labels = meeting.reference.map(({ start, end, voice }) => {
      const middle = (start + end) / 2;
      return [voice, segments.find((s) => s.start <= middle && middle <= s.end)?.speaker];
    });
    expect(labels).toEqual([
      ['festival', 'agent'],
      ['espeak', expect.not.stringMatching(/^agent$/)],
      ['festival', 'agent'],
      ['espeak', expect.not.stringMatching(/^agent$/)],
    ]);
  });
});
