// Handlers are plain async functions, one per channel, registered in one map. Electron serves the map
// through ipcMain (typed-ipc.ts); end-to-end tests serve the same map to a browser. Every request is
// validated against the contract's schema here, before its handler runs; failures become data.
import type { IpcChannel, IpcResponse, IpcResult, IpcValidRequest } from '../../src-shared/ipc-contract.js';
import { AppFailure, appError } from '../app-failure.js';
import { validateRequest } from './request-validator.js';

export type { EventSink } from '../event-sink.js';

/** Receives the request already validated and normalised. */
export type Handler<C extends IpcChannel> = (request: IpcValidRequest<C>) => Promise<IpcResponse<C>>;
export type HandlerMap = { [C in IpcChannel]: Handler<C> };

export async function invokeHandler<C extends IpcChannel>(
  handlers: HandlerMap,
  channel: C,
  /** As it arrived from the renderer: untrusted. */
  request: unknown,
  onUnexpected: (error: unknown) => void = () => {},
): Promise<IpcResult<IpcResponse<C>>> {
  try {
    const handler = handlers[channel] as Handler<C> | undefined;
    if (!handler)
      return {
        ok: false,
        error: appError({ code: 'internal', reason: 'internal', detail: `Unknown channel ${String(channel)}` }),
      };
    return { ok: true, value: await handler(validateRequest(channel, request)) };
  } catch (error) {
    if (error instanceof AppFailure) return { ok: false, error: error.error };
    onUnexpected(error);
    return {
      ok: false,
      error: appError({ code: 'internal', reason: 'internal' }),
    };
  }
}
