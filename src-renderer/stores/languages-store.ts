// What the active server's speech engines recognize, for the language picker: per transcription
// model, whether it detects the language and which languages it knows. null: the server does not say
// (an older server, offline, or a failure): the picker then offers every language and no detection.
import { create } from 'zustand';
import type { ServingLanguages } from '../../src-shared/ipc-contract';
import { api } from '../lib/api';

interface LanguagesState {
  /** undefined until the first answer. */
  serving: ServingLanguages | null | undefined;
  load: () => Promise<void>;
}

export const useLanguagesStore = create<LanguagesState>()((set) => {
  let latest = 0;
  return {
    serving: undefined,
    async load() {
      const call = ++latest;
      const result = await api().languages.serving();
      // A newer load (another server became active) wins over an older answer.
      if (call === latest) set({ serving: result.ok ? result.value : null });
    },
  };
});
