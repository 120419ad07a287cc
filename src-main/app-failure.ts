// The one failure main-process code raises on purpose. It carries what the renderer needs (a closed
// code it can switch on, a closed reason it words in the UI's language, the server's text as detail, the
// field to show it next to, the server's error id) and keeps the underlying error as `cause` for the log.
// Only invokeHandler, at the IPC boundary, turns it into data; anything else that escapes a handler is a
// bug and becomes 'internal'.
import type { IpcError } from '../src-shared/ipc-contract.js';
import type { AppErrorReason, ErrorReason } from '../src-shared/error-reasons.js';

/** A failure main words itself: its own reason, without the `app.` prefix. */
export type AppFailureInit = Omit<IpcError, 'reason'> & { reason: AppErrorReason | ErrorReason };

export class AppFailure extends Error {
  override readonly name: string = 'AppFailure';
  readonly error: IpcError;

  constructor(failure: AppFailureInit, options?: { cause?: unknown }) {
    const reason: ErrorReason = failure.reason.includes('.')
      ? (failure.reason as ErrorReason)
      : `app.${failure.reason as AppErrorReason}`;
    // The log's message: the reason and the server's words; the user's are the renderer's to choose.
    super(failure.detail ? `${reason}: ${failure.detail}` : reason, options);
    this.error = { ...failure, reason };
  }

  get code(): IpcError['code'] {
    return this.error.code;
  }

  get field(): string | undefined {
    return this.error.field;
  }

  get errorId(): string | undefined {
    return this.error.errorId;
  }
}

/** An IpcError main words itself (not thrown): for results and events that carry a failure as data. */
export function appError(failure: AppFailureInit): IpcError {
  return new AppFailure(failure).error;
}
