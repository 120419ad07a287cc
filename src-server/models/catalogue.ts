// The speech-model catalogue: the official whisper.cpp ggml files (exact byte counts and SHA-256 as
// published with the files on Hugging Face, ggerganov/whisper.cpp), or a JSON file that replaces them
// (KIKITORI_MODEL_CATALOG: mirrors with their own builds, tests serving a generated model).
//
// Quantized files are listed only where their size and hash are known exactly; a missing one can be
// fetched by hand and used through KIKITORI_WHISPER_MODEL.
import fs from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { literalUnion } from '../../src-shared/api/common.js';
import { MODEL_ACCURACIES, MODEL_PRECISIONS, MODEL_SPEEDS, ModelName } from '../../src-shared/api/models.js';
import { ConfigError } from '../config.js';

export type ModelSpeed = (typeof MODEL_SPEEDS)[number];
export type ModelAccuracy = (typeof MODEL_ACCURACIES)[number];
export type ModelPrecision = (typeof MODEL_PRECISIONS)[number];

export interface ModelEntry {
  /** Catalogue name, as in `kikitori-server models download <name>`. */
  name: string;
  /** File name under <data-dir>/models. */
  file: string;
  bytes: number;
  sha256: string;
  /** As listed in whisper.cpp models/README.md (official full-precision files only). */
  sha1?: string;
  /**
   * The model this file is a build of ("small" for small, small.en and small.en-q5_1): what the user
   * chooses between; the English-only and compressed files are variants of it.
   */
  family: string;
  /** About 99 languages (and translation into English), or English only. */
  multilingual: boolean;
  /** ISO 639-1 codes; absent: whisper's languages when multilingual, else ["en"]. */
  languages?: readonly string[];
  quantized: boolean;
  /** How close to the full model's accuracy this file is: compression costs some (see precisionOf). */
  precision: ModelPrecision;
  /** The family's speed and accuracy: the full-precision model's; `precision` says what a compressed file loses. */
  speed: ModelSpeed;
  accuracy: ModelAccuracy;
  /** Memory while transcribing: the weights plus whisper's working buffers. */
  memoryBytes: number;
  /** Where to fetch it; absent: `${KIKITORI_MODEL_BASE_URL}/${file}`. */
  url?: string;
  /** Present for a speaker-embedding model (speaker-models.ts), which is not a speech model. */
  embedding?: SpeakerEmbeddingSpec;
}

/** How a speaker-embedding ONNX model is fed and read, and how its scores are judged (decision 0097). */
export interface SpeakerEmbeddingSpec {
  /** Name of the input tensor: float32 [1, frames, melBins], log mel filterbank of 16 kHz speech. */
  input: string;
  /** Name of the output tensor: float32 [1, dimensions]. */
  output: string;
  melBins: number;
  dimensions: number;
  /** 'utterance-mean': each mel bin minus its mean over the frames (WeSpeaker's CMN); 'none': as computed. */
  normalization: 'utterance-mean' | 'none';
  licence: string;
  /** Cosine similarity settings for naming a separated speaker (see embedding-voice-prints.ts). */
  match: {
    minSimilarity: number;
    ratio: number;
    aloneMinSimilarity: number;
    minSpeechSeconds: number;
    /**
     * `diarization-high` without a count: separated speakers whose embeddings reach this cosine similarity are
     * one voice and are merged (engines/speakers/embedding-speaker-merge.ts). Absent: the model merges none.
     */
    sameSpeakerSimilarity?: number;
  };
}

const SpeakerEmbeddingSchema = Type.Object(
  {
    input: Type.String({ minLength: 1, maxLength: 128 }),
    output: Type.String({ minLength: 1, maxLength: 128 }),
    mel_bins: Type.Integer({ minimum: 8, maximum: 256 }),
    dimensions: Type.Integer({ minimum: 2, maximum: 4096 }),
    normalization: literalUnion(['utterance-mean', 'none'] as const),
    licence: Type.String({ minLength: 1, maxLength: 200 }),
    min_similarity: Type.Number({ minimum: -1, maximum: 1 }),
    ratio: Type.Number({ exclusiveMinimum: 0, maximum: 1 }),
    alone_min_similarity: Type.Number({ minimum: -1, maximum: 1 }),
    min_speech_seconds: Type.Optional(Type.Number({ minimum: 0 })),
    same_speaker_similarity: Type.Optional(Type.Number({ minimum: -1, maximum: 1 })),
  },
  { additionalProperties: false },
);

const MiB = 1024 ** 2;

/**
 * Working memory beyond the weights, per family: whisper.cpp's README lists the total memory of each
 * full-precision model (tiny 273 MB, base 388 MB, small 852 MB, medium 2.1 GB, large 3.9 GB); this is
 * that total minus the file. large-v3-turbo has large's encoder and a 4-layer decoder, hence less.
 */
const WORKING_MEMORY = {
  tiny: 200 * MiB,
  base: 250 * MiB,
  small: 400 * MiB,
  medium: 650 * MiB,
  'large-v3': 950 * MiB,
  'large-v3-turbo': 600 * MiB,
} as const;
type Family = keyof typeof WORKING_MEMORY;

const HINTS: Record<Family, { speed: ModelSpeed; accuracy: ModelAccuracy }> = {
  tiny: { speed: 'fastest', accuracy: 'basic' },
  base: { speed: 'fast', accuracy: 'good' },
  small: { speed: 'moderate', accuracy: 'better' },
  medium: { speed: 'slow', accuracy: 'great' },
  'large-v3-turbo': { speed: 'slow', accuracy: 'best' },
  'large-v3': { speed: 'slowest', accuracy: 'best' },
};

/**
 * What a compressed file keeps of the full model's accuracy. whisper.cpp's quantized files store the
 * weights in 8 bits (q8_0) or in 5 (q5_0, q5_1) or fewer: the fewer bits, the more rounding of every
 * weight and the more the transcript can drift from the full model's. Nothing here measured them (no
 * model host is reachable from this project's machines), so the words stay relative and modest: "nearly
 * as accurate" for 8 bits, "a little less accurate" below, never "as accurate" (issue 27, decision 0087).
 */
export function precisionOf(compression: string | undefined): ModelPrecision {
  if (compression === undefined) return 'full';
  return /^q8/.test(compression) ? 'near-full' : 'reduced';
}

/** The parts of a whisper.cpp model name: "small.en-q5_1" is small, English only, compressed q5_1. */
export function nameParts(name: string): { family: string; english: boolean; compression: string | undefined } {
  const match = /^(.+?)(\.en)?(?:-(q\d_\w+))?$/.exec(name)!;
  return { family: match[1]!, english: match[2] !== undefined, compression: match[3] };
}

function official(name: string, bytes: number, sha256: string, sha1?: string): ModelEntry {
  if (!/^(tiny|base|small|medium|large-v3-turbo|large-v3)(\.en)?(-q\d_\d)?$/.test(name))
    throw new Error(`not an official model name: ${name}`);
  const parts = nameParts(name);
  const family = parts.family as Family;
  return {
    name,
    file: `ggml-${name}.bin`,
    bytes,
    sha256,
    ...(sha1 ? { sha1 } : {}),
    family,
    multilingual: !parts.english,
    quantized: parts.compression !== undefined,
    precision: precisionOf(parts.compression),
    ...HINTS[family],
    memoryBytes: bytes + WORKING_MEMORY[family],
  };
}

/** The official ggml files, smallest family first. Sizes are exact byte counts. */
export const OFFICIAL_MODELS: readonly ModelEntry[] = [
  official(
    'tiny',
    77_691_713,
    'be07e048e1e599ad46341c8d2a135645097a538221678b7acdd1b1919c6e1b21',
    'bd577a113a864445d4c299885e0cb97d4ba92b5f',
  ),
  official(
    'tiny.en',
    77_704_715,
    '921e4cf8686fdd993dcd081a5da5b6c365bfde1162e72b08d75ac75289920b1f',
    'c78c86eb1a8faa21b369bcd33207cc90d64ae9df',
  ),
  official('tiny-q5_1', 32_152_673, '818710568da3ca15689e31a743197b520007872ff9576237bda97bd1b469c3d7'),
  official('tiny.en-q5_1', 32_166_155, 'c77c5766f1cef09b6b7d47f21b546cbddd4157886b3b5d6d4f709e91e66c7c2b'),
  official('tiny-q8_0', 43_537_433, 'c2085835d3f50733e2ff6e4b41ae8a2b8d8110461e18821b09a15c40c42d1cca'),
  official(
    'base',
    147_951_465,
    '60ed5bc3dd14eea856493d334349b405782ddcaf0028d4b5df4088345fba2efe',
    '465707469ff3a37a2b9b8d8f89f2f99de7299dac',
  ),
  official(
    'base.en',
    147_964_211,
    'a03779c86df3323075f5e796cb2ce5029f00ec8869eee3fdfb897afe36c6d002',
    '137c40403d78fd54d454da0f9bd998f78703390c',
  ),
  official('base-q5_1', 59_707_625, '422f1ae452ade6f30a004d7e5c6a43195e4433bc370bf23fac9cc591f01a8898'),
  official('base.en-q5_1', 59_721_011, '4baf70dd0d7c4247ba2b81fafd9c01005ac77c2f9ef064e00dcf195d0e2fdd2f'),
  official('base-q8_0', 81_768_585, 'c577b9a86e7e048a0b7eada054f4dd79a56bbfa911fbdacf900ac5b567cbb7d9'),
  official(
    'small',
    487_601_967,
    '1be3a9b2063867b937e64e2ec7483364a79917e157fa98c5d94b5c1fffea987b',
    '55356645c2b361a969dfd0ef2c5a50d530afd8d5',
  ),
  official(
    'small.en',
    487_614_201,
    'c6138d6d58ecc8322097e0f987c32f1be8bb0a18532a3f88f734d1bbf9c41e5d',
    'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022',
  ),
  official('small-q5_1', 190_085_487, 'ae85e4a935d7a567bd102fe55afc16bb595bdb618e11b2fc7591bc08120411bb'),
  official('small.en-q5_1', 190_098_681, 'bfdff4894dcb76bbf647d56263ea2a96645423f1669176f4844a1bf8e478ad30'),
  official('small-q8_0', 264_464_607, '49c8fb02b65e6049d5fa6c04f81f53b867b5ec9540406812c643f177317f779f'),
  official(
    'medium',
    1_533_763_059,
    '6c14d5adee5f86394037b4e4e8b59f1673b6cee10e3cf0b11bbdbee79c156208',
    'fd9727b6e1217c2f614f9b698455c4ffd82463b4',
  ),
  official(
    'medium.en',
    1_533_774_781,
    'cc37e93478338ec7700281a7ac30a10128929eb8f427dda2e865faa8f6da4356',
    '8c30f0e44ce9560643ebd10bbe50cd20eafd3723',
  ),
  official('medium-q5_0', 539_212_467, '19fea4b380c3a618ec4723c3eef2eb785ffba0d0538cf43f8f235e7b3b34220f'),
  official('medium.en-q5_0', 539_225_533, '76733e26ad8fe1c7a5bf7531a9d41917b2adc0f20f2e4f5531688a8c6cd88eb0'),
  official('medium-q8_0', 823_369_779, '42a1ffcbe4167d224232443396968db4d02d4e8e87e213d3ee2e03095dea6502'),
  official(
    'large-v3-turbo',
    1_624_555_275,
    '1fc70f774d38eb169993ac391eea357ef47c88757ef72ee5943879b7e8e2bc69',
    '4af2b29d7ec73d781377bfd1758ca957a807e941',
  ),
  official('large-v3-turbo-q5_0', 574_041_195, '394221709cd5ad1f40c46e6031ca61bce88931e6e088c188294c6d5a55ffa7e2'),
  official('large-v3-turbo-q8_0', 874_188_075, '317eb69c11673c9de1e1f0d459b253999804ec71ac4c23c17ecf5fbe24e259a1'),
  official(
    'large-v3',
    3_095_033_483,
    '64d182b440b98d5203c4f9bd541544d84c605196c4f7b845dfa11fb23594d1e2',
    'ad82bf6a9043ceed055076d0fd39f5f186ff8062',
  ),
  official('large-v3-q5_0', 1_081_140_203, 'd75795ecff3f83b5faa89d1900604ad8c780abd5739fae406de19f23ecd98ad1'),
];

/**
 * The order in which installed models are preferred: most accurate first; among equals the faster,
 * then multilingual before English-only, then full precision before quantized, then the larger file.
 */
export function rankModels(entries: readonly ModelEntry[]): ModelEntry[] {
  const accuracy = (m: ModelEntry) => MODEL_ACCURACIES.indexOf(m.accuracy);
  const speed = (m: ModelEntry) => MODEL_SPEEDS.indexOf(m.speed);
  return [...entries].sort(
    (a, b) =>
      accuracy(b) - accuracy(a) ||
      speed(a) - speed(b) ||
      Number(b.multilingual) - Number(a.multilingual) ||
      Number(a.quantized) - Number(b.quantized) ||
      b.bytes - a.bytes ||
      a.name.localeCompare(b.name),
  );
}

/** The KIKITORI_MODEL_CATALOG file: `{ "models": [ … ] }`, one object per model, snake_case as in the API. */
export const CatalogueFileSchema = Type.Object(
  {
    models: Type.Array(
      Type.Object(
        {
          name: ModelName,
          family: Type.Optional(ModelName),
          file: Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' }),
          bytes: Type.Integer({ minimum: 1 }),
          sha256: Type.String({ pattern: '^[0-9a-fA-F]{64}$' }),
          multilingual: Type.Boolean(),
          languages: Type.Optional(Type.Array(Type.String({ minLength: 2, maxLength: 3 }))),
          quantized: Type.Optional(Type.Boolean()),
          precision: Type.Optional(literalUnion(MODEL_PRECISIONS)),
          speed: Type.Optional(literalUnion(MODEL_SPEEDS)),
          accuracy: Type.Optional(literalUnion(MODEL_ACCURACIES)),
          memory_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
          url: Type.Optional(Type.String({ pattern: '^https?://[^/]+' })),
          /** A speaker-embedding model rather than a speech model. */
          embedding: Type.Optional(SpeakerEmbeddingSchema),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
export type CatalogueFile = Static<typeof CatalogueFileSchema>;

/** Reads and checks a catalogue file; a ConfigError says what is wrong and where. */
export function loadCatalogueFile(file: string): ModelEntry[] {
  const fail = (why: string) =>
    new ConfigError(
      `KIKITORI_MODEL_CATALOG (${file}) ${why}. Fix the file, or unset KIKITORI_MODEL_CATALOG to use the official catalogue.`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(code ? `cannot be read (${code})` : `is not valid JSON (${(error as Error).message})`);
  }
  if (!Value.Check(CatalogueFileSchema, raw)) {
    const first = [...Value.Errors(CatalogueFileSchema, raw)][0];
    throw fail(`does not match the catalogue format at ${first?.instancePath || '/'}: ${first?.message ?? 'invalid'}`);
  }
  const entries = raw.models.map((m): ModelEntry => {
    const parts = nameParts(m.name);
    const quantized = m.quantized ?? parts.compression !== undefined;
    return {
      name: m.name,
      file: m.file,
      bytes: m.bytes,
      sha256: m.sha256.toLowerCase(),
      family: m.family ?? parts.family,
      multilingual: m.multilingual,
      ...(m.languages ? { languages: m.languages.map((l) => l.toLowerCase()) } : {}),
      quantized,
      precision: m.precision ?? (quantized ? precisionOf(parts.compression ?? 'q5') : 'full'),
      speed: m.speed ?? 'moderate',
      accuracy: m.accuracy ?? 'good',
      memoryBytes: m.memory_bytes ?? m.bytes,
      ...(m.url ? { url: m.url } : {}),
      ...(m.embedding
        ? {
            embedding: {
              input: m.embedding.input,
              output: m.embedding.output,
              melBins: m.embedding.mel_bins,
              dimensions: m.embedding.dimensions,
              normalization: m.embedding.normalization,
              licence: m.embedding.licence,
              match: {
                minSimilarity: m.embedding.min_similarity,
                ratio: m.embedding.ratio,
                aloneMinSimilarity: m.embedding.alone_min_similarity,
                minSpeechSeconds: m.embedding.min_speech_seconds ?? 2,
                ...(m.embedding.same_speaker_similarity !== undefined
                  ? { sameSpeakerSimilarity: m.embedding.same_speaker_similarity }
                  : {}),
              },
            },
          }
        : {}),
    };
  });
  for (const key of ['name', 'file'] as const) {
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e[key])) throw fail(`lists the ${key} "${e[key]}" twice`);
      seen.add(e[key]);
    }
  }
  return entries;
}

/**
 * The speech models in force: those of the file named by KIKITORI_MODEL_CATALOG, or the official models (also
 * when the file lists only speaker-embedding models, which speaker-models.ts takes).
 */
export function loadCatalogue(settings: { catalog?: string }): readonly ModelEntry[] {
  if (settings.catalog === undefined) return OFFICIAL_MODELS;
  const speech = loadCatalogueFile(settings.catalog).filter((m) => !m.embedding);
  return speech.length > 0 ? speech : OFFICIAL_MODELS;
}

export function findModel(entries: readonly ModelEntry[], name: string): ModelEntry | undefined {
  const wanted = name.replace(/^ggml-/, '').replace(/\.bin$/, '');
  return entries.find((m) => m.name === wanted) ?? entries.find((m) => m.file === name);
}

export const formatModelSize = (n: number) =>
  n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : `${Math.round(n / 1024 ** 2)} MiB`;
