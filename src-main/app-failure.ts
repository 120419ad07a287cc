// The one failure main-process code raises on purpose. It carries what the renderer needs (a closed
// code it can switch on, a message ready for the user, the field to show it next to, the server's
// error id) and keeps the underlying error as `cause` for the log. Only invokeHandler, at the IPC
// boundary, turns it into data; anything else that escapes a handler is a bug and becomes 'internal'.
import type { IpcError, IpcErrorCode } from '../src-shared/ipc-contract.js';

export class AppFailure extends Error {
  override readonly name: string = 'AppFailure';
  readonly code: IpcErrorCode;
  readonly field: string | undefined;
  readonly errorId: string | undefined;

  constructor(failure: IpcError, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.code = failure.code;
    this.field = failure.field;
    this.errorId = failure.errorId;
  }

  /** The failure as it crosses IPC. */
  get error(): IpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.field !== undefined ? { field: this.field } : {}),
      ...(this.errorId !== undefined ? { errorId: this.errorId } : {}),
    };
  }
}
