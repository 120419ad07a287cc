// The preload: the only place in the renderer process that touches ipcRenderer. It exposes a named,
// curated API built from the IPC contract, never a generic invoke. Bundled to one CommonJS file
// (dist/preload/preload.cjs) because sandboxed preloads cannot load modules.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { IpcChannel, IpcEvent, IpcResult } from '../src-shared/ipc-contract.js';
import { buildKikitoriApi } from './build-api.js';
import type { FileOffer, FilesApi } from '../src-shared/ipc-contract.js';

const invoke = (channel: IpcChannel, request: unknown) =>
  ipcRenderer.invoke(channel, request) as Promise<IpcResult<unknown>>;

const subscribe = (event: IpcEvent, listener: (payload: unknown) => void) => {
  // The raw IpcRendererEvent (with its sender) never reaches the page.
  const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
  ipcRenderer.on(event, wrapped);
  return () => void ipcRenderer.removeListener(event, wrapped);
};

// The trust boundary for drops (decision 0046): only real File objects, which the page got from a drop
// or a file input the user answered, become paths; main registers them and answers handles.
const files: FilesApi = {
  async offer(dropped) {
    const paths: string[] = [];
    for (const file of Array.from(dropped)) {
      // getPathForFile throws for anything but a File (contextBridge hands Files over as Files).
      let path = '';
      try {
        path = webUtils.getPathForFile(file);
      } catch {
        path = '';
      }
      if (!path) {
        return {
          ok: false,
          error: {
            code: 'validation',
            message: `“${String(file?.name ?? '')}” is not a file on this computer. Save it to disk first, then add it.`,
          },
        };
      }
      paths.push(path);
    }
    if (paths.length === 0) return { ok: true, value: [] };
    return invoke('files:offer-dropped', { paths }) as Promise<IpcResult<FileOffer[]>>;
  },
};

contextBridge.exposeInMainWorld('kikitori', buildKikitoriApi(invoke, subscribe, files));
