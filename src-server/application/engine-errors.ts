// The one place an EngineError becomes an HTTP answer. The user gets the engine's message (what
// happened, what to do); the detail (engine, library, upstream answer) is for the log line that carries
// the same error_id, never for the response body.
import type { EngineError, EngineErrorKind } from '../domain/engine-error.js';
import { AppError } from './errors.js';
import type { ErrorCodeName } from '../../src-shared/error-codes.js';
import { assertNever } from '../../src-shared/assert-never.js';

/** The request field that names the uploaded media: a bad input there is a media-type problem (415). */
export const MEDIA_FIELD = 'file';

/** An AppError that still knows the engine failure behind it, so the error log can carry its detail. */
export class EngineAppError extends AppError {
  readonly kind: EngineErrorKind;
  readonly detail: string | undefined;

  constructor(statusCode: number, code: ErrorCodeName, source: EngineError) {
    super(statusCode, code, source.message, source.field);
    this.kind = source.kind;
    this.detail = source.detail;
  }

  override logFields(): Record<string, unknown> {
    return { engine_error: this.kind, ...(this.detail === undefined ? {} : { detail: this.detail }) };
  }
}

export function engineErrorToAppError(error: EngineError): EngineAppError {
  switch (error.kind) {
    case 'unavailable':
    case 'transient':
      // Both are the server's problem, not the request's: 503 tells the client to try again later.
      return new EngineAppError(503, 'ENGINE_UNAVAILABLE', error);
    case 'unsupported':
      return new EngineAppError(400, error.field === 'language' ? 'UNSUPPORTED_LANGUAGE' : 'UNSUPPORTED_OPTION', error);
    case 'bad-input':
      return new EngineAppError(
        error.field === MEDIA_FIELD ? 415 : 400,
        error.field === MEDIA_FIELD ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_FAILED',
        error,
      );
    default:
      return assertNever(error.kind, 'engine error kind');
  }
}
