// Extension: speech-model management (issue 10). Any key reads the catalogue; downloading, cancelling and
// deleting need the OPERATOR role: models are the whole server's, not a team's (decision 0045). A download runs in the background: POST answers the asynchronous
// acknowledgment, and the status URL carries progress until the file is verified and in place.
//
// One implementation serves these routes, the CLI (`kikitori-server models …`) and, through them,
// the desktop app's Settings → Speech recognition.
import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, EmptyBody, errorResponses, literalUnion, NullableString } from './common.js';
import { MODEL_ERROR_KINDS, TRANSCRIPTION_MODELS } from './vocabulary.js';

const tags = ['models'];

/** Catalogue names: "base", "large-v3-turbo", "small.en", "base-q5_1"… */
export const ModelName = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' });
export const ModelParams = Type.Object({ name: ModelName });

/** Coarse hints a user can compare models by; the catalogue assigns them. */
export const MODEL_SPEEDS = ['fastest', 'fast', 'moderate', 'slow', 'slowest'] as const;
export const MODEL_ACCURACIES = ['basic', 'good', 'better', 'great', 'best'] as const;
/**
 * What a file keeps of its model's accuracy: 'full' precision; 'near-full', compressed to 8 bits, nearly as
 * accurate; 'reduced', compressed to 5 bits or fewer, a little less accurate. Smaller files, less memory.
 */
export const MODEL_PRECISIONS = ['full', 'near-full', 'reduced'] as const;
export const MODEL_DOWNLOAD_STATUSES = ['DOWNLOADING', 'VERIFYING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type ModelDownloadStatus = (typeof MODEL_DOWNLOAD_STATUSES)[number];

export const ModelDownload = Type.Object({
  model: Type.String(),
  status: literalUnion(MODEL_DOWNLOAD_STATUSES),
  received_bytes: Type.Integer({ minimum: 0 }),
  total_bytes: Type.Integer({ minimum: 0 }),
  /** Why it FAILED, in the server's words (English): what happened and what to do. */
  error: NullableString,
  /** Why it FAILED, as a closed code for clients to word in their own language. */
  error_code: Type.Union([literalUnion(MODEL_ERROR_KINDS), Type.Null()]),
  started_at: DateTime,
  updated_at: DateTime,
});

export const CatalogueModel = Type.Object({
  name: Type.String(),
  // Optional for clients of servers older than issue 27; this server always sends both.
  family: Type.Optional(
    Type.String({
      description:
        'Extension: the model this file is a build of ("small" for small, small.en and small-q5_1); clients group the files under it.',
    }),
  ),
  file: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String(),
  /** true: about 99 languages (and translation into English); false: English only. */
  multilingual: Type.Boolean(),
  /** ISO 639-1 codes the model recognizes. */
  languages: Type.Array(Type.String()),
  quantized: Type.Boolean(),
  precision: Type.Optional(
    literalUnion(MODEL_PRECISIONS, {
      description:
        "Extension: what the file keeps of the full model's accuracy: full; near-full (compressed to 8 bits, nearly as accurate); reduced (5 bits or fewer, a little less accurate).",
    }),
  ),
  /** The family's: the full-precision model's speed and accuracy; `precision` says what compression costs. */
  speed: literalUnion(MODEL_SPEEDS),
  accuracy: literalUnion(MODEL_ACCURACIES),
  /** Memory the model needs while transcribing, for recommending one by the machine's memory. */
  memory_bytes: Type.Integer({ minimum: 0 }),
  installed: Type.Boolean(),
  /** Installed, but whisper.cpp cannot load the file: engine `auto` skips it. Delete it and download it again. */
  damaged: Type.Boolean(),
  /** The latest download of this model since the server started, or null. */
  download: Type.Union([ModelDownload, Type.Null()]),
});

/** Which engine and model serve a transcription_model now, and what it can do. */
export const ServingModel = Type.Object({
  engine: Type.String({ description: 'e.g. "whisper", "pocketsphinx", "remote"' }),
  model: NullableString,
  /** The engine can be asked for language "auto" (whisper); otherwise `languages` lists what it serves. */
  detects_language: Type.Boolean(),
  languages: Type.Array(Type.String()),
  /** Whether the engine can run here now, and if not, why (in the user's terms). */
  usable: Type.Boolean(),
  reason: NullableString,
});

export const ModelsResponse = Type.Object({
  models: Type.Array(CatalogueModel),
  serving: Type.Object(
    Object.fromEntries(TRANSCRIPTION_MODELS.map((m) => [m, ServingModel])) as Record<
      (typeof TRANSCRIPTION_MODELS)[number],
      typeof ServingModel
    >,
  ),
  /** The caller's key has the OPERATOR role: it may download, cancel and delete models. */
  can_manage: Type.Boolean(),
});

export const ModelDownloadAck = Type.Object({
  model: Type.String(),
  is_async: Type.Literal(true),
  status_url: Type.String({ description: 'GET this URL (with your API key) for progress.' }),
});

const op = <S extends Record<string, unknown>>(schema: S) => ({ tags, ...schema });
const r = (ok: Record<number, TSchema>, ...errors: number[]) => ({ ...ok, ...errorResponses(401, ...errors) });

export const listModels = {
  method: 'GET',
  path: '/api/v1/models',
  schema: op({
    summary: 'Speech models: the catalogue, what is installed, and what serves each transcription_model',
    response: r({ 200: ModelsResponse }),
  }),
} as const;

export const downloadModel = {
  method: 'POST',
  path: '/api/v1/models/:name/download',
  schema: op({
    summary: 'Download a catalogue model in the background (OPERATOR)',
    params: ModelParams,
    response: r({ 202: ModelDownloadAck }, 400, 403, 404, 507),
  }),
} as const;

export const getModelDownload = {
  method: 'GET',
  path: '/api/v1/models/:name/download',
  schema: op({
    summary: "A model download's progress",
    params: ModelParams,
    response: r({ 200: ModelDownload }, 400, 404),
  }),
} as const;

export const cancelModelDownload = {
  method: 'DELETE',
  path: '/api/v1/models/:name/download',
  schema: op({
    summary: 'Cancel a running download; nothing partial is kept (OPERATOR)',
    params: ModelParams,
    response: r({ 204: EmptyBody }, 400, 403, 404),
  }),
} as const;

export const installModelFile = {
  method: 'PUT',
  path: '/api/v1/models/:name/file',
  schema: op({
    summary: 'Install a catalogue model from its file, sent as the raw body (OPERATOR)',
    description:
      'For a server that cannot reach the model host: send the file the catalogue names (e.g. ggml-small.bin) as the body, any content type. It is checked as a download is (size, SHA-256, that whisper.cpp loads it) before it is installed; a running download of the model is cancelled first. Answers the model as listed.',
    params: ModelParams,
    response: r({ 200: CatalogueModel }, 400, 403, 404, 422, 507),
  }),
} as const;

export const deleteModel = {
  method: 'DELETE',
  path: '/api/v1/models/:name',
  schema: op({
    summary: 'Remove an installed model (OPERATOR)',
    params: ModelParams,
    response: r({ 204: EmptyBody }, 400, 403, 404, 409),
  }),
} as const;

export type ModelsResponse = Static<typeof ModelsResponse>;
export type CatalogueModel = Static<typeof CatalogueModel>;
export type ModelDownload = Static<typeof ModelDownload>;
export type ServingModel = Static<typeof ServingModel>;
export type ModelDownloadAck = Static<typeof ModelDownloadAck>;
