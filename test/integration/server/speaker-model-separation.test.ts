// diarization-high with a speaker-embedding model installed (decision 0097), over real HTTP with real speech:
// after the MFCC separation, speakers the model calls one voice are merged. The generated model here maps
// every voice to the same direction (all its weights equal), so it calls festival's and espeak-ng's voices one
// voice: the enhanced separation without a count gives one speaker, where without the model it gives two; the
// standard separation and a given count are not the model's to change.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { speakerModelManager } from '../../../src-server/models/speaker-models.js';
import { meanProjectionModel } from '../../support/onnx-model.js';
import { startTestServer, tempDir, transcribeFile, type TestServer } from '../../support/test-server.js';
import { twoVoiceMeeting, type TwoVoiceMeeting } from '../../support/two-voice-meeting.js';

const BINS = 80;
const DIMS = 4;

let server: TestServer;
let key: string;
let meeting: TwoVoiceMeeting;

beforeAll(async () => {
  const model = meanProjectionModel(new Float32Array(BINS * DIMS).fill(1), BINS, DIMS).bytes;
  const scratch = tempDir();
  const catalog = path.join(scratch, 'catalog.json');
  fs.writeFileSync(
    catalog,
    JSON.stringify({
      models: [
        {
          name: 'one-voice',
          file: 'one-voice.onnx',
          bytes: model.length,
          sha256: createHash('sha256').update(model).digest('hex'),
          multilingual: true,
          embedding: {
            input: 'feats',
            output: 'embs',
            mel_bins: BINS,
            dimensions: DIMS,
            normalization: 'none',
            licence: 'generated for tests',
            min_similarity: 0.8,
            ratio: 0.8,
            alone_min_similarity: 0.8,
            min_speech_seconds: 1,
            same_speaker_similarity: 0.9,
          },
        },
      ],
    }),
  );
  server = await startTestServer({ env: { KIKITORI_MODEL_CATALOG: catalog } });
  key = await server.key('acme');
  // `models install` from a file: the same checks as a download (size, SHA-256, an ONNX model).
  await speakerModelManager({ dataDir: server.dataDir, baseUrl: 'http://127.0.0.1:9', catalog }).install(
    'one-voice',
    Readable.from(model),
  );
  meeting = await twoVoiceMeeting();
});
afterAll(() => server?.close());

async function speakersOf(body: Record<string, unknown>): Promise<Set<string | null>> {
  const id = await transcribeFile(server, key, meeting.wav, { language: 'en', ...body });
  const record = await server.api(key, 'GET', `/api/v1/transcriptions/${id}`);
  const document = (await (await fetch(record.json.transcription_path)).json()) as TranscriptDocument;
  expect(document.segments.length).toBeGreaterThan(1);
  return new Set(document.segments.map((s) => s.speaker));
}

describe('diarization-high with a speaker model installed', () => {
  it('merges the speakers the model calls one voice when no count is given', async () => {
    expect(await speakersOf({ transcription_model: 'diarization-high' })).toEqual(new Set(['SPEAKER_1']));
  });

  it('leaves the standard separation and a given count to the MFCC separation', async () => {
    expect(await speakersOf({})).toEqual(new Set(['SPEAKER_1', 'SPEAKER_2']));
    expect(await speakersOf({ transcription_model: 'diarization-high', num_speakers: 2 })).toEqual(
      new Set(['SPEAKER_1', 'SPEAKER_2']),
    );
  });
});
