// Builds the curated `window.kikitori` API from the IPC contract: one named method per channel,
// grouped by domain, plus `on(event, listener)`. The Electron preload and the end-to-end test host's
// bridge both build it here, so the renderer sees the same shape whichever carries the calls.
import {
  IPC_CHANNELS,
  IPC_EVENTS,
  PRELOAD_CHANNELS,
  apiPathOf,
  type IpcChannel,
  type IpcEvent,
  type IpcEvents,
  type IpcResult,
  type KikitoriApi,
} from '../src-shared/ipc-contract.js';
import type { FilesApi } from '../src-shared/ipc-contract.js';

export type Invoke = (channel: IpcChannel, request: unknown) => Promise<IpcResult<unknown>>;
export type Subscribe = (event: IpcEvent, listener: (payload: unknown) => void) => () => void;

/** What the renderer sees as `window.kikitori`: the contract's API plus the helper for dropped files. */
export type RendererApi = KikitoriApi;

export function buildKikitoriApi(invoke: Invoke, subscribe: Subscribe, files: FilesApi): RendererApi {
  const api: Record<string, unknown> = {};
  const preloadOnly: readonly string[] = PRELOAD_CHANNELS;
  for (const channel of IPC_CHANNELS) {
    // Paths of dropped files reach main only through `files.offer`, which reads them from File objects.
    if (preloadOnly.includes(channel)) continue;
    const [domain, method] = apiPathOf(channel);
    const group = (api[domain] ??= {}) as Record<string, unknown>;
    // Exactly one argument crosses, so a renderer cannot smuggle extra parameters to a handler.
    group[method] = (request?: unknown) => invoke(channel, request);
  }
  const events: readonly string[] = IPC_EVENTS;
  api.on = <E extends IpcEvent>(event: E, listener: (payload: IpcEvents[E]) => void): (() => void) => {
    if (!events.includes(event)) throw new Error(`Unknown event ${String(event)}`);
    return subscribe(event, listener as (payload: unknown) => void);
  };
  api.files = files;
  return freezeDeep(api) as RendererApi;
}

function freezeDeep<T extends object>(value: T): T {
  for (const inner of Object.values(value)) if (inner && typeof inner === 'object') freezeDeep(inner as object);
  return Object.freeze(value);
}
