// The team's voice library (decision 0075): listed from main (the cached list when offline, read-only),
// renamed and deleted. "This is…" goes through the transcript store, which shows the named speaker.
import { create } from 'zustand';
import type { IpcError, VoiceDetail, VoiceSummary } from '../../src-shared/ipc-contract';
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
  /** The parts of transcriptions a voice was learned from, asked for when the user opens them. */
  samples: (id: string) => Promise<[VoiceDetail, null] | [null, IpcError]>;
  /** Forgets one part of a voice; the voice's line in the list follows. */
  removeSample: (id: string, sampleId: string) => Promise<[VoiceDetail, null] | [null, IpcError]>;
  /** Keeps a voice enrolled or extended elsewhere ("This is…") in the list. */
  keep: (voice: VoiceSummary) => void;
}

export const useVoicesStore = create<VoicesState>()((set, get) => {
  const lists = createRequestTracker<VoicesState>(set, { busy: 'loading', error: 'error' });
  /** A voice the server answered for stays current in the list; one it no longer has leaves it. */
  const kept = async (
    answer: [VoiceDetail, null] | [null, IpcError],
  ): Promise<[VoiceDetail, null] | [null, IpcError]> => {
    const [detail, error] = answer;
    if (detail) get().keep(detail.voice);
    else if (error.code === 'not-found') await get().load();
    return answer;
  };
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
    async samples(id) {
      return kept(split(await api().voices.samples({ id })));
    },
    async removeSample(id, sampleId) {
      return kept(split(await api().voices.removeSample({ id, sampleId })));
    },
    keep(voice) {
      const list = get().list;
      set({
        list: list.some((v) => v.id === voice.id) ? list.map((v) => (v.id === voice.id ? voice : v)) : [voice, ...list],
      });
    },
  };
});
