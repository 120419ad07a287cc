// The only module that imports ipcMain. Every channel of the contract is registered here and routed
// through the handler registry; a call is served only when it comes from the app's own page.
import { ipcMain, type IpcMainInvokeEvent, type WebContents, webContents as allWebContents } from 'electron';
import {
  IPC_CHANNELS,
  type IpcChannel,
  type IpcEvent,
  type IpcEvents,
  type IpcResult,
} from '../../src-shared/ipc-contract.js';
import { invokeHandler, type EventSink, type HandlerMap } from './handler-registry.js';
import type { TrustedUrl } from './trusted-sender.js';
import { appError } from '../app-failure.js';

export { trustedRendererUrl, type TrustedUrl } from './trusted-sender.js';

export function registerIpcHandlers(
  handlers: HandlerMap,
  isTrusted: TrustedUrl,
  onUnexpected: (channel: IpcChannel, error: unknown) => void,
): () => void {
  for (const channel of IPC_CHANNELS) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, request: unknown): Promise<IpcResult<unknown>> => {
      const frameUrl = event.senderFrame?.url ?? '';
      if (!isTrusted(frameUrl)) {
        onUnexpected(channel, new Error(`IPC ${channel} refused from untrusted frame ${frameUrl || '(gone)'}`));
        return { ok: false, error: appError({ code: 'forbidden', reason: 'page-forbidden' }) };
      }
      return invokeHandler(handlers, channel, request, (error) => onUnexpected(channel, error));
    });
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel);
  };
}

/** Pushes events to every live renderer whose page is trusted. */
export function createEventSink(
  isTrusted: TrustedUrl,
  targets: () => WebContents[] = () => allWebContents.getAllWebContents(),
): EventSink {
  return <E extends IpcEvent>(event: E, payload: IpcEvents[E]) => {
    for (const contents of targets()) {
      if (!contents.isDestroyed() && isTrusted(contents.getURL())) contents.send(event, payload);
    }
  };
}
