// The one door from the renderer to main: `window.kikitori`, exposed by the preload (or, in end-to-end
// tests, by the test host's bridge with the same shape). Stores call it; components call stores.
import type { IpcError, IpcResult, KikitoriApi } from '../../src-shared/ipc-contract';

/** What the renderer sees as `window.kikitori` (the preload builds exactly this contract type). */
export type RendererApi = KikitoriApi;

declare global {
  interface Window {
    kikitori?: RendererApi;
  }
}

export function api(): RendererApi {
  const bridge = window.kikitori;
  if (!bridge) throw new Error('window.kikitori is missing: the page was not loaded by Kikitori');
  return bridge;
}

/** For stores: the value, or the error to keep in state. */
export function split<T>(result: IpcResult<T>): [T, null] | [null, IpcError] {
  return result.ok ? [result.value, null] : [null, result.error];
}

export function errorOf(error: unknown): IpcError {
  return { code: 'internal', reason: 'app.internal', detail: error instanceof Error ? error.message : String(error) };
}
