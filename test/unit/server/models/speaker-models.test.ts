// The speaker-model catalogue (decision 0097): its own list beside the speech models', taken from the
// KIKITORI_MODEL_CATALOG file when the file has entries with `embedding`, never mixed into the speech models.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue, OFFICIAL_MODELS } from '../../../../src-server/models/catalogue.js';
import { loadSpeakerCatalogue, OFFICIAL_SPEAKER_MODELS } from '../../../../src-server/models/speaker-models.js';

const speech = { name: 'test-base', file: 'ggml-test-base.bin', bytes: 10, sha256: 'a'.repeat(64), multilingual: true };
const speaker = {
  name: 'test-speaker',
  file: 'test-speaker.onnx',
  bytes: 20,
  sha256: 'b'.repeat(64),
  multilingual: true,
  embedding: {
    input: 'feats',
    output: 'embs',
    mel_bins: 80,
    dimensions: 256,
    normalization: 'utterance-mean',
    licence: 'test',
    min_similarity: 0.5,
    ratio: 0.8,
    alone_min_similarity: 0.6,
  },
};
const file = (models: unknown[]) => {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'speaker-catalogue-')), 'catalog.json');
  fs.writeFileSync(f, JSON.stringify({ models }));
  return f;
};

describe('the speaker-model catalogue', () => {
  it('lists WeSpeaker ResNet34 with its exact size, SHA-256 and front end', () => {
    expect(OFFICIAL_SPEAKER_MODELS.map((m) => m.name)).toEqual(['wespeaker-resnet34']);
    expect(OFFICIAL_SPEAKER_MODELS[0]).toMatchObject({
      bytes: 26_534_127,
      sha256: '9fea6516d7ad6bf0a76c7689f5a49b65d330fad6dde96c91bb4435ffbfe056a1',
      embedding: { input: 'feats', output: 'embs', melBins: 80, dimensions: 256, normalization: 'utterance-mean' },
    });
    expect(OFFICIAL_MODELS.some((m) => m.embedding)).toBe(false);
  });

  it('takes the file’s speaker entries apart from its speech entries', () => {
    const both = file([speech, speaker]);
    expect(loadCatalogue({ catalog: both }).map((m) => m.name)).toEqual(['test-base']);
    expect(loadSpeakerCatalogue({ catalog: both })).toMatchObject([
      {
        name: 'test-speaker',
        embedding: {
          melBins: 80,
          match: { minSimilarity: 0.5, ratio: 0.8, aloneMinSimilarity: 0.6, minSpeechSeconds: 2 },
        },
      },
    ]);
  });

  it('keeps the official list of a kind the file does not list', () => {
    expect(loadSpeakerCatalogue({ catalog: file([speech]) })).toBe(OFFICIAL_SPEAKER_MODELS);
    expect(loadCatalogue({ catalog: file([speaker]) })).toBe(OFFICIAL_MODELS);
    expect(loadSpeakerCatalogue({})).toBe(OFFICIAL_SPEAKER_MODELS);
  });
});
