// Why a model operation failed, as a closed kind, with a message in the user's terms and a detail
// for operators (URLs, errno codes, hashes). The HTTP routes map kinds to error codes; a background
// download keeps the message as its `error`.
import type { ModelErrorKind } from '../../src-shared/api/vocabulary.js';

// The kinds are the API's (a download's `error_code`), listed once in src-shared/api/vocabulary.ts.
export { MODEL_ERROR_KINDS, type ModelErrorKind } from '../../src-shared/api/vocabulary.js';

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
