// The one error engines throw. Its kind is a closed set; the job runner maps it to "fail now" or
// "retry", and the HTTP routes map it to a status (application/engine-errors.ts). Nothing matches on the
// message or the class name.
//
// `message` is for the user: what happened and what to do, without engine names or internals.
// `detail` is for the log and the operator: the engine, the library, the upstream answer.

export type EngineErrorKind =
  /** The engine cannot run here (library, model or service missing or down). Retrying will not help until an operator acts. */
  | 'unavailable'
  /** The engine runs but cannot do what was asked (a language, a pair, an option). */
  | 'unsupported'
  /** The input can never succeed (corrupt or empty audio, a text that cannot be analysed). */
  | 'bad-input'
  /** A passing failure (timeout, overloaded upstream, a crash mid-run): try again later. */
  | 'transient';

export const ENGINE_ERROR_KINDS = [
  'unavailable',
  'unsupported',
  'bad-input',
  'transient',
] as const satisfies readonly EngineErrorKind[];

export interface EngineErrorOptions {
  /** Internal details for the log: engine and model names, library errors, upstream bodies. */
  detail?: string;
  /** The request field the failure is about ("language"), when there is one. */
  field?: string;
  cause?: unknown;
}

export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly detail: string | undefined;
  readonly field: string | undefined;

  constructor(
    readonly kind: EngineErrorKind,
    message: string,
    options: EngineErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options.detail;
    this.field = options.field;
  }

  /** True when running the same work again may succeed without anyone changing anything. */
  get retryable(): boolean {
    return this.kind === 'transient';
  }
}

export function isEngineError(error: unknown, kind?: EngineErrorKind): error is EngineError {
  return error instanceof EngineError && (kind === undefined || error.kind === kind);
}

/** For operators (the `engines` listing, a CLI error): the user's message followed by the detail, if any. */
export function operatorMessage(error: unknown): string {
  if (error instanceof EngineError) return error.detail ? `${error.message} (${error.detail})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
