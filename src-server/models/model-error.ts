// Why a model operation failed, as a closed kind, with a message in the user's terms and a detail
// for operators (URLs, errno codes, hashes). The HTTP routes map kinds to error codes; a background
// download keeps the message as its `error`.
export const MODEL_ERROR_KINDS = [
  /** No catalogue entry has this name. */
  'not-found',
  /** The model is not on disk. */
  'not-installed',
  /** Not enough free disk space for the file. */
  'insufficient-storage',
  /** The model server could not be reached (offline, DNS, refused, TLS). Trying later may work. */
  'unreachable',
  /** The server answered, but without the file (404, 403…) or with an error (5xx). */
  'source-failed',
  /** The transfer stopped part-way; the partial file is kept and the next download resumes it. */
  'interrupted',
  /** The bytes do not match the catalogue's size or SHA-256; nothing is kept. */
  'corrupt',
  /** Cancelled by the user; nothing is kept. */
  'cancelled',
  /** The bytes match the catalogue, but whisper.cpp could not load them (not a whisper ggml model); nothing is kept. */
  'unusable',
  /** A file given to install (not downloaded) differs from the catalogue entry in size or SHA-256; nothing is kept. */
  'not-this-model',
] as const;
export type ModelErrorKind = (typeof MODEL_ERROR_KINDS)[number];

export class ModelError extends Error {
  override readonly name = 'ModelError';
  readonly detail: string | null;
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    options: { detail?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options.detail ?? null;
  }
}

export const isModelError = (error: unknown): error is ModelError => error instanceof ModelError;
