// Handlers are plain async functions, one per channel, registered in one map. Electron serves the map
// through ipcMain (typed-ipc.ts); end-to-end tests serve the same map to a browser. Errors become data.
import type { IpcChannel, IpcError, IpcEvent, IpcEvents, IpcRequest, IpcResponse, IpcResult } from '../../src-shared/ipc-contract.js';

export type Handler<C extends IpcChannel> = (request: IpcRequest<C>) => Promise<IpcResponse<C>>;
export type HandlerMap = { [C in IpcChannel]: Handler<C> };

/** Pushes an event to every renderer. */
export type EventSink = <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => void;

/** A failure a handler reports on purpose, with a code the renderer can switch on. */
export class IpcFailure extends Error {
  override readonly name = 'IpcFailure';
  constructor(readonly error: IpcError) {
    super(error.message);
  }
}

export async function invokeHandler<C extends IpcChannel>(
  handlers: HandlerMap,
  channel: C,
  request: IpcRequest<C>,
  onUnexpected: (error: unknown) => void = () => {},
): Promise<IpcResult<IpcResponse<C>>> {
  try {
    const handler = handlers[channel] as Handler<C> | undefined;
    if (!handler) return { ok: false, error: { code: 'internal', message: `Unknown channel ${String(channel)}` } };
    return { ok: true, value: await handler(request) };
  } catch (error) {
    if (error instanceof IpcFailure) return { ok: false, error: error.error };
    onUnexpected(error);
    return { ok: false, error: { code: 'internal', message: 'Something went wrong in Kikitori. Please try again; if it keeps happening, report it.' } };
  }
}
