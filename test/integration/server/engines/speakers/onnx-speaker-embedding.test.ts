// The speaker-embedding extractor with a generated ONNX model (test/support/onnx-model.ts): the log mel
// filterbank goes through onnxruntime and comes back at unit length, exactly as the graph computes it; the
// normalisation the catalogue names is applied; real speech of two voices comes out apart.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../../../src-server/domain/engine-error.js';
import { EmbeddingVoicePrints } from '../../../../../src-server/engines/speakers/embedding-voice-prints.js';
import { MFCC_PRINT_KIND } from '../../../../../src-server/engines/speakers/mfcc-voice-prints.js';
import { cosine, OnnxSpeakerEmbedding } from '../../../../../src-server/engines/speakers/onnx-speaker-embedding.js';
import type { ModelEntry, SpeakerEmbeddingSpec } from '../../../../../src-server/models/catalogue.js';
import { onnxModelProblem } from '../../../../../src-server/models/speaker-models.js';
import { audioDuration, pcmOf, synthesizeSpeech, toWav16k } from '../../../../support/audio-fixtures.js';
import { cepstralWeights, meanProjectionModel } from '../../../../support/onnx-model.js';
import { tempDir } from '../../../../support/test-server.js';

const BINS = 80;
const DIMS = 12;
const spec = (normalization: SpeakerEmbeddingSpec['normalization']): SpeakerEmbeddingSpec => ({
  input: 'feats',
  output: 'embs',
  melBins: BINS,
  dimensions: DIMS,
  normalization,
  licence: 'test',
  match: { minSimilarity: 0.5, ratio: 0.8, aloneMinSimilarity: 0.6, minSpeechSeconds: 1 },
});

let modelFile: string;
beforeAll(() => {
  modelFile = path.join(tempDir(), 'speaker.onnx');
  fs.writeFileSync(modelFile, meanProjectionModel(cepstralWeights(BINS, DIMS), BINS, DIMS).bytes);
});

describe('OnnxSpeakerEmbedding', () => {
  it('returns the graph’s output (mean over frames times the matrix) at unit length', async () => {
    const model = await OnnxSpeakerEmbedding.load(modelFile, spec('none'));
    const frames = 5;
    const features = Float32Array.from({ length: frames * BINS }, (_, i) => Math.sin(i * 0.37) + (i % BINS) / 40);
    const w = cepstralWeights(BINS, DIMS);
    const expected = new Float64Array(DIMS);
    for (let b = 0; b < BINS; b++) {
      let mean = 0;
      for (let f = 0; f < frames; f++) mean += features[f * BINS + b]! / frames;
      for (let d = 0; d < DIMS; d++) expected[d]! += mean * w[b * DIMS + d]!;
    }
    const norm = Math.hypot(...expected);
    const got = await model.embed(features, frames);
    expect(got).toHaveLength(DIMS);
    [...got].forEach((x, d) => expect(x).toBeCloseTo(expected[d]! / norm, 5));
  });

  it('subtracts each mel bin’s mean over the frames when the model expects it', async () => {
    // A graph that keeps each bin's maximum over the frames, which a per-bin mean moves.
    const maxFile = path.join(tempDir(), 'max.onnx');
    const w = cepstralWeights(BINS, DIMS);
    fs.writeFileSync(maxFile, meanProjectionModel(w, BINS, DIMS, undefined, 'ReduceMax').bytes);
    const frames = 6;
    const features = Float32Array.from({ length: frames * BINS }, (_, i) => Math.sin(i * 0.91) * (1 + (i % 7)));
    const expected = (normalise: boolean) => {
      const out = new Float64Array(DIMS);
      for (let b = 0; b < BINS; b++) {
        const column = Array.from({ length: frames }, (_, f) => features[f * BINS + b]!);
        const mean = normalise ? column.reduce((s, x) => s + x, 0) / frames : 0;
        const max = Math.max(...column) - mean;
        for (let d = 0; d < DIMS; d++) out[d]! += max * w[b * DIMS + d]!;
      }
      const norm = Math.hypot(...out);
      return [...out].map((x) => x / norm);
    };
    const normalised = await (await OnnxSpeakerEmbedding.load(maxFile, spec('utterance-mean'))).embed(features, frames);
    const raw = await (await OnnxSpeakerEmbedding.load(maxFile, spec('none'))).embed(features, frames);
    expected(true).forEach((x, d) => expect(normalised[d]).toBeCloseTo(x, 5));
    expected(false).forEach((x, d) => expect(raw[d]).toBeCloseTo(x, 5));
    expect(cosine(normalised, raw)).toBeLessThan(0.99);
  });

  it('refuses a model without the catalogue’s tensors, as unavailable', async () => {
    const other = path.join(tempDir(), 'other.onnx');
    fs.writeFileSync(
      other,
      meanProjectionModel(cepstralWeights(BINS, DIMS), BINS, DIMS, { input: 'x', output: 'y' }).bytes,
    );
    const error = await OnnxSpeakerEmbedding.load(other, spec('none')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).kind).toBe('unavailable');
    expect((error as EngineError).detail).toMatch(/no tensor "feats"/);
  });

  it('places two real voices apart and each voice near itself', async () => {
    const model = await OnnxSpeakerEmbedding.load(modelFile, spec('none'));
    const embed = async (voice: 'festival' | 'espeak', text: string) => {
      const wav = await toWav16k(await synthesizeSpeech(text, undefined, { voice }));
      const pcm = await pcmOf(wav);
      const r = await model.embedPcm(pcm, [{ start: 0, end: await audioDuration(wav) }], AbortSignal.timeout(60_000));
      expect(r.speechSeconds).toBeGreaterThan(0.5);
      return r.embedding;
    };
    const a1 = await embed('festival', 'the quarterly numbers look strong this time');
    const a2 = await embed('festival', 'then we should hire two more engineers');
    const b1 = await embed('espeak', 'i agree and the costs went down as well');
    const b2 = await embed('espeak', 'let us talk about that next week');
    const same = Math.min(cosine(a1, a2), cosine(b1, b2));
    const across = Math.max(cosine(a1, b1), cosine(a1, b2), cosine(a2, b1), cosine(a2, b2));
    expect(same).toBeGreaterThan(across);
  });
});

describe('onnxModelProblem', () => {
  it('accepts a generated model, refuses a truncated one and a ggml file', () => {
    const bytes = meanProjectionModel(cepstralWeights(BINS, DIMS), BINS, DIMS).bytes;
    const cut = path.join(tempDir(), 'cut.onnx');
    fs.writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
    const ggml = path.join(tempDir(), 'ggml.bin');
    fs.writeFileSync(ggml, Buffer.from('lmgg0000000000000000'));
    expect(onnxModelProblem(modelFile)).toBeNull();
    expect(onnxModelProblem(cut)).toMatch(/not an ONNX model/);
    expect(onnxModelProblem(ggml)).toMatch(/not an ONNX model/);
  });
});

describe('EmbeddingVoicePrints', () => {
  const entry = (file: string): ModelEntry => ({
    name: 'test-speaker',
    file: path.basename(file),
    bytes: fs.existsSync(file) ? fs.statSync(file).size : 1,
    sha256: 'c'.repeat(64),
    family: 'test-speaker',
    multilingual: true,
    quantized: false,
    precision: 'full',
    speed: 'fast',
    accuracy: 'good',
    memoryBytes: 0,
    embedding: spec('none'),
  });
  const source = (file: string) => ({
    catalogue: [entry(file)],
    isInstalled: () => fs.existsSync(file),
    damageOf: () => onnxModelProblem(file),
    pathOf: () => file,
  });
  let pcm: string;
  let seconds: number;
  beforeAll(async () => {
    const wav = await toWav16k(
      await synthesizeSpeech('then we should hire two more engineers', undefined, { voice: 'festival' }),
    );
    pcm = await pcmOf(wav);
    seconds = await audioDuration(wav);
  });

  it('prints with the installed model, and with the MFCC statistics when there is none', async () => {
    const installed = await new EmbeddingVoicePrints(source(modelFile)).print(
      pcm,
      [{ start: 0, end: seconds }],
      AbortSignal.timeout(60_000),
    );
    expect(installed.print.kind).toBe(`embedding:test-speaker:${'c'.repeat(12)}`);
    expect(installed.print.values).toHaveLength(1 + DIMS);
    const none = await new EmbeddingVoicePrints(source(path.join(tempDir(), 'absent.onnx'))).print(
      pcm,
      [{ start: 0, end: seconds }],
      AbortSignal.timeout(60_000),
    );
    expect(none.print.kind).toBe(MFCC_PRINT_KIND);
  });

  it('falls back to the MFCC prints when onnxruntime cannot use the model, and says so once in the log', async () => {
    const other = path.join(tempDir(), 'wrong-tensors.onnx');
    fs.writeFileSync(
      other,
      meanProjectionModel(cepstralWeights(BINS, DIMS), BINS, DIMS, { input: 'x', output: 'y' }).bytes,
    );
    const warnings: { obj: object; message: string }[] = [];
    const prints = new EmbeddingVoicePrints(source(other), undefined, {
      warn: (obj, message) => warnings.push({ obj, message }),
    });
    for (let i = 0; i < 2; i++) {
      const { print } = await prints.print(pcm, [{ start: 0, end: seconds }], AbortSignal.timeout(60_000));
      expect(print.kind).toBe(MFCC_PRINT_KIND);
    }
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/speaker model cannot be loaded/);
    expect(warnings[0]!.obj).toMatchObject({
      model: 'test-speaker',
      detail: expect.stringMatching(/no tensor "feats"/),
    });
  });
});
