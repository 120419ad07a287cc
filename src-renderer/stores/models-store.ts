// Speech models on the active server (Settings → Speech recognition, and the first-run offer in the
// library). Main follows running downloads and pushes 'models:changed'; this store keeps the newest
// status per model, and reloads the list when a download ends (the model is installed, or not).
import { create } from 'zustand';
import type {
  IpcError,
  IpcResult,
  SpeechModel,
  SpeechModelDownload,
  SpeechModels,
} from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';
import { useSettingsStore } from './settings-store';

export type ModelAction = 'download' | 'install' | 'cancel' | 'delete';

interface ModelsState {
  models: SpeechModels | null;
  /** The newest status of each download main has reported since this list was loaded. */
  downloads: Record<string, SpeechModelDownload>;
  loading: boolean;
  /** Why the list could not be loaded. */
  error: IpcError | null;
  /** The action under way on a model, while main answers. */
  pending: Record<string, ModelAction>;
  /** The last refused action on a model, until the next one. */
  failures: Record<string, IpcError>;
  /** An offer dismissed in this window: hidden at once, before main confirms. */
  offerDismissed: boolean;
  load: () => Promise<void>;
  download: (name: string) => Promise<IpcError | null>;
  cancel: (name: string) => Promise<IpcError | null>;
  remove: (name: string) => Promise<IpcError | null>;
  /** Main asks for the model's file in its own dialog and sends it to the server. */
  installFromFile: (name: string) => Promise<IpcError | null>;
  dismissOffer: () => Promise<IpcError | null>;
  /** Follows main's progress events and profile switches; the last caller's off() stops it. */
  follow: () => () => void;
}

const FINAL: ReadonlySet<string> = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

export const useModelsStore = create<ModelsState>()((set, get) => {
  const loads = createRequestTracker<ModelsState>(set, { busy: 'loading', error: 'error' });
  let followers = 0;
  let stop: (() => void) | null = null;

  const without = <V>(record: Record<string, V>, name: string): Record<string, V> => {
    const { [name]: _, ...rest } = record;
    return rest;
  };

  /** Runs an action on one model; its answer is the fresh list, newer than any load under way. */
  async function act(
    name: string,
    action: ModelAction,
    call: () => Promise<IpcResult<SpeechModels>>,
  ): Promise<IpcError | null> {
    set({ pending: { ...get().pending, [name]: action }, failures: without(get().failures, name) });
    if (action === 'download') set({ downloads: without(get().downloads, name) });
    const [models, error] = split(await call());
    if (models) loads.renew();
    // An install's progress is this call's own: once it answers, installed or refused, it is over.
    if (action === 'install') set({ downloads: without(get().downloads, name) });
    set({
      ...(models ? { models, error: null } : {}),
      pending: without(get().pending, name),
      failures: error && error.code !== 'cancelled' ? { ...get().failures, [name]: error } : get().failures,
    });
    return error;
  }

  return {
    models: null,
    downloads: {},
    loading: false,
    error: null,
    pending: {},
    failures: {},
    offerDismissed: false,
    async load() {
      await loads.run(
        () => api().models.list(),
        (models) => ({ models }),
      );
    },
    download: (name) => act(name, 'download', () => api().models.download({ name })),
    cancel: (name) => act(name, 'cancel', () => api().models.cancel({ name })),
    remove: (name) => act(name, 'delete', () => api().models.delete({ name })),
    installFromFile: (name) => act(name, 'install', () => api().models.installFile({ name })),
    async dismissOffer() {
      set({ offerDismissed: true });
      const [models, error] = split(await api().models.dismissOffer());
      if (models) {
        loads.renew();
        set({ models });
      }
      return error;
    },
    follow() {
      if (followers++ === 0) {
        const offEvents = api().on('models:changed', (download) => {
          set({ downloads: { ...get().downloads, [download.model]: download } });
          if (FINAL.has(download.status)) void get().load();
        });
        const offProfiles = useSettingsStore.subscribe((state, previous) => {
          if (state.settings?.activeProfileId === previous.settings?.activeProfileId) return;
          loads.renew();
          set({ models: null, downloads: {}, pending: {}, failures: {}, error: null });
          void get().load();
        });
        stop = () => {
          offEvents();
          offProfiles();
        };
      }
      let done = false;
      return () => {
        if (done) return;
        done = true;
        if (--followers === 0) {
          stop?.();
          stop = null;
        }
      };
    },
  };
});

/** A model's download as last heard: main's pushed status when there is one, else the list's. */
export function downloadOf(state: Pick<ModelsState, 'downloads'>, model: SpeechModel): SpeechModelDownload | null {
  return state.downloads[model.name] ?? model.download;
}

export const isRunning = (download: SpeechModelDownload | null): boolean =>
  download !== null && !FINAL.has(download.status);

/** The first-run offer's model, when it should show. */
export const selectOffer = (state: ModelsState): SpeechModel | null => {
  const models = state.models;
  if (!models || !models.offer || state.offerDismissed || !models.recommended) return null;
  return models.models.find((m) => m.name === models.recommended) ?? null;
};
