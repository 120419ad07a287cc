// How main pushes the contract's events to the renderer. Services take a sink rather than a window,
// so they run the same in Electron (typed-ipc.ts), in tests and in the end-to-end host.
import type { IpcEvent, IpcEvents } from '../src-shared/ipc-contract.js';

/** Pushes an event to every renderer. */
export type EventSink = <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => void;
