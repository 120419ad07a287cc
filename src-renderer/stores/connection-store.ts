// Whether the active server answers. Offline, the app keeps browsing, searching and playing the cache.
import { create } from 'zustand';
import type { ConnectionStatus, IpcError } from '../../src-shared/ipc-contract';
import { api } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';

interface ConnectionState {
  status: ConnectionStatus | null;
  refreshing: boolean;
  error: IpcError | null;
  /** Loads the status and follows 'connection:changed'; returns the unsubscribe. */
  init: () => Promise<() => void>;
  refresh: () => Promise<void>;
}

export const useConnectionStore = create<ConnectionState>()((set) => {
  const statuses = createRequestTracker<ConnectionState>(set, { busy: 'refreshing', error: 'error' });
  return {
    status: null,
    refreshing: false,
    error: null,
    async init() {
      const off = api().on('connection:changed', (status) => set({ status }));
      await statuses.run(
        () => api().connection.status(),
        (status) => ({ status }),
        { markBusy: false },
      );
      return off;
    },
    async refresh() {
      await statuses.run(
        () => api().transcripts.refresh(),
        (status) => ({ status }),
      );
    },
  };
});

/** Unknown counts as online: the indicator only shows once main says the server is unreachable. */
export const selectOnline = (state: ConnectionState) => state.status?.online ?? true;
export const selectPending = (state: ConnectionState) => state.status?.pending ?? 0;
export const selectOfflineDetail = (state: ConnectionState) => state.status?.detail ?? null;
