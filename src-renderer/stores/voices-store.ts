// The team's voice library (decision 0075): listed from main (the cached list when offline, read-only),
// renamed and deleted. "This is…" goes through the transcript store, which shows the named speaker.
import { create } from 'zustand';
import type { IpcError, VoiceSummary } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import { createRequestTracker } from '../lib/request-tracker';

interface VoicesState {
  list: VoiceSummary[];
  /** The list is the one last seen: the server cannot be reached, and nothing can be changed. */
  offline: boolean;
  loading: boolean;
  error: IpcError | null;
  load: () => Promise<void>;
  rename: (id: string, name: string) => Promise<IpcError | null>;
  remove: (id: string) => Promise<IpcError | null>;
  /** Keeps a voice enrolled or extended elsewhere ("This is…") in the list. */
  keep: (voice: VoiceSummary) => void;
}

export const useVoicesStore = create<VoicesState>()((set, get) => {
  const lists = createRequestTracker<VoicesState>(set, { busy: 'loading', error: 'error' });
  return {
    list: [],
    offline: false,
    loading: false,
    error: null,
    async load() {
      await lists.run(
        () => api().voices.list(),
        (answer) => ({ list: answer.voices, offline: answer.offline }),
      );
    },
    async rename(id, name) {
      const [voice, error] = split(await api().voices.rename({ id, name }));
      if (voice) get().keep(voice);
      else if (error.code === 'not-found') await get().load();
      return error;
    },
    async remove(id) {
      const [, error] = split(await api().voices.delete({ id }));
      if (!error || error.code === 'not-found') set({ list: get().list.filter((v) => v.id !== id) });
      return error;
    },
    keep(voice) {
      const list = get().list;
      set({
        list: list.some((v) => v.id === voice.id) ? list.map((v) => (v.id === voice.id ? voice : v)) : [voice, ...list],
      });
    },
  };
});
