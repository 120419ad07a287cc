// The speaker-embedding models (decision 0097): ONNX networks that turn a log mel filterbank of speech into a
// vector describing the voice. Listed, downloaded and verified by the same machinery as the speech models
// (manager.ts, downloader.ts), in a catalogue of their own so that they never appear among speech models
// (GET /api/v1/models, engine `auto`). When one is installed, voice prints are its embeddings
// (engines/speakers/embedding-voice-prints.ts); when none is, the MFCC prints of decision 0065.
import fs from 'node:fs';
import { loadCatalogueFile, type ModelEntry, type SpeakerEmbeddingSpec } from './catalogue.js';
import type { ModelFormat } from './downloader.js';
import { ModelManager, type ModelManagerOptions } from './manager.js';

export type { SpeakerEmbeddingSpec };

/**
 * The settings a model's cosine scores are judged with. NOT measured: no model host is reachable from this
 * project's machines, so no real model has run here. 0.5 is the cosine similarity that sherpa-onnx users
 * publish for this model (speaker verification, and sherpa-onnx's clustering threshold, which
 * `sameSpeakerSimilarity` takes for merging separated speakers); the ratio and the single-voice threshold
 * follow the MFCC prints' shape (decision 0084). bench:speakers should re-choose them on a machine that has
 * the model.
 */
const WESPEAKER_MATCH = {
  minSimilarity: 0.5,
  ratio: 0.8,
  aloneMinSimilarity: 0.6,
  minSpeechSeconds: 2,
  sameSpeakerSimilarity: 0.5,
};

/**
 * WeSpeaker's ResNet34 trained on VoxCeleb2, as WeSpeaker publishes its runtime model on Hugging Face
 * (Wespeaker/wespeaker-voxceleb-resnet34, revision ff1ac5b). Size and SHA-256 as recorded, identically, by
 * several independent projects that pin this file; the input and output names and the front end are those
 * of WeSpeaker's runtime (decision 0097 lists the sources).
 */
const WESPEAKER_RESNET34: ModelEntry = {
  name: 'wespeaker-resnet34',
  file: 'wespeaker-voxceleb-resnet34.onnx',
  bytes: 26_534_127,
  sha256: '9fea6516d7ad6bf0a76c7689f5a49b65d330fad6dde96c91bb4435ffbfe056a1',
  url: 'https://huggingface.co/Wespeaker/wespeaker-voxceleb-resnet34/resolve/ff1ac5bca8ef11e90662b879aa923979e0bd277b/voxceleb_resnet34.onnx',
  family: 'wespeaker-resnet34',
  multilingual: true,
  quantized: false,
  precision: 'full',
  speed: 'fast',
  accuracy: 'good',
  // The weights and onnxruntime's buffers for a few seconds of speech.
  memoryBytes: 26_534_127 + 100 * 1024 ** 2,
  embedding: {
    input: 'feats',
    output: 'embs',
    melBins: 80,
    dimensions: 256,
    normalization: 'utterance-mean',
    licence: 'Apache-2.0 (WeSpeaker); weights trained on VoxCeleb, CC BY 4.0',
    match: WESPEAKER_MATCH,
  },
};

export const OFFICIAL_SPEAKER_MODELS: readonly ModelEntry[] = [WESPEAKER_RESNET34];

/**
 * The speaker-embedding models in force: those of the KIKITORI_MODEL_CATALOG file (entries with `embedding`),
 * or the official ones when there is no file or it lists none.
 */
export function loadSpeakerCatalogue(settings: { catalog?: string }): readonly ModelEntry[] {
  if (settings.catalog === undefined) return OFFICIAL_SPEAKER_MODELS;
  const speaker = loadCatalogueFile(settings.catalog).filter((m) => m.embedding);
  return speaker.length > 0 ? speaker : OFFICIAL_SPEAKER_MODELS;
}

/**
 * Why `file` cannot be an ONNX model, or null. An ONNX file is one protobuf ModelProto; its top-level fields are
 * walked (tags and lengths must fit the file exactly) and it must carry a graph (field 7). onnxruntime loads it
 * later; this catches a truncated file or one of another format before it takes the model's name.
 */
export function onnxModelProblem(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    return `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (at >= bytes.length) throw new Error('ends inside a number');
      const b = bytes[at++]!;
      value += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new Error('has a number longer than 10 bytes');
  };
  let graph = false;
  try {
    while (at < bytes.length) {
      const tag = varint();
      const field = Math.floor(tag / 8);
      const wire = tag & 7;
      if (field === 0) throw new Error('has a field numbered 0');
      if (wire === 0) varint();
      else if (wire === 1) at += 8;
      else if (wire === 5) at += 4;
      else if (wire === 2) {
        const length = varint();
        if (field === 7) graph = true;
        at += length;
      } else throw new Error(`has a field of wire type ${wire}`);
      if (at > bytes.length) throw new Error('ends inside a field');
    }
  } catch (error) {
    return `not an ONNX model: the file ${(error as Error).message}`;
  }
  return graph ? null : 'not an ONNX model: the file has no graph';
}

export const SPEAKER_MODEL_FORMAT: ModelFormat = { noun: 'speaker model', problemOf: onnxModelProblem };

/** The speaker models' manager: the speech models' machinery (download, resume, verify) over this catalogue. */
export function speakerModelManager(
  options: Omit<ModelManagerOptions, 'catalogue' | 'format'> & { catalog?: string },
): ModelManager {
  const { catalog, ...rest } = options;
  return new ModelManager({ ...rest, catalogue: loadSpeakerCatalogue({ catalog }), format: SPEAKER_MODEL_FORMAT });
}
