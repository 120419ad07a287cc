// Whether the active server answers. Offline, the app keeps browsing, searching and playing the cache.
import { create } from 'zustand';
import type { ConnectionStatus, IpcError } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';

interface ConnectionState {
  status: ConnectionStatus | null;
  refreshing: boolean;
  error: IpcError | null;
  /** Loads the status and follows 'connection:changed'; returns the unsubscribe. */
  init(): Promise<() => void>;
  refresh(): Promise<void>;
}

export const useConnectionStore = create<ConnectionState>()((set) => ({
  status: null,
  refreshing: false,
  error: null,
  async init() {
    const off = api().on('connection:changed', (status) => set({ status }));
    const [status, error] = split(await api().connection.status());
    set(status ? { status, error: null } : { error });
    return off;
  },
  async refresh() {
    set({ refreshing: true });
    const [status, error] = split(await api().transcripts.refresh());
    set(status ? { status, error: null, refreshing: false } : { error, refreshing: false });
  },
}));

/** Unknown counts as online: the indicator only shows once main says the server is unreachable. */
export const selectOnline = (state: ConnectionState) => state.status?.online ?? true;
export const selectPending = (state: ConnectionState) => state.status?.pending ?? 0;
export const selectOfflineDetail = (state: ConnectionState) => state.status?.detail ?? null;
