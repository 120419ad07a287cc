// The preload: the only place in the renderer process that touches ipcRenderer. It exposes a named,
// curated API built from the IPC contract, never a generic invoke. Bundled to one CommonJS file
// (dist/preload/preload.cjs) because sandboxed preloads cannot load modules.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { IpcChannel, IpcEvent, IpcResult } from '../src-shared/ipc-contract.js';
import { buildKikitoriApi } from './build-api.js';
import type { FilesApi } from '../src-shared/ipc-contract.js';

const invoke = (channel: IpcChannel, request: unknown) => ipcRenderer.invoke(channel, request) as Promise<IpcResult<unknown>>;

const subscribe = (event: IpcEvent, listener: (payload: unknown) => void) => {
  // The raw IpcRendererEvent (with its sender) never reaches the page.
  const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(event, wrapped);
  return () => void ipcRenderer.removeListener(event, wrapped);
};

const files: FilesApi = {
  async localPath(file) {
    const path = webUtils.getPathForFile(file);
    if (path) return { ok: true, value: path };
    return { ok: false, error: { code: 'validation', message: `“${file.name}” is not a file on this computer. Save it to disk first, then add it.` } };
  },
};

contextBridge.exposeInMainWorld('kikitori', buildKikitoriApi(invoke, subscribe, files));
