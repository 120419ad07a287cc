// App settings and server profiles (main keeps API keys; the renderer never sees them again).
import { create } from 'zustand';
import type { IpcError, ServerProfile, Settings } from '../../src-shared/ipc-contract';
import { api, split } from '../lib/api';
import { createRequestTracker, together } from '../lib/request-tracker';
import { useConnectionStore } from './connection-store';
import { useDictionariesStore } from './dictionaries-store';
import { useLibraryStore } from './library-store';

type SettingsPatch = Partial<Omit<Settings, 'activeProfileId'>>;

interface SettingsState {
  settings: Settings | null;
  profiles: ServerProfile[];
  error: IpcError | null;
  load: () => Promise<void>;
  update: (patch: SettingsPatch) => Promise<IpcError | null>;
  addProfile: (input: { name: string; baseUrl: string; apiKey: string }) => Promise<IpcError | null>;
  removeProfile: (id: string) => Promise<IpcError | null>;
  activateProfile: (id: string) => Promise<IpcError | null>;
}

export const useSettingsStore = create<SettingsState>()((set, get) => {
  const loads = createRequestTracker<SettingsState>(set);
  // Changes started so far. A load or an older change that answers after a newer change started
  // never overwrites that change: opening Settings loads them, and a language chosen before that
  // load answers must stay chosen.
  let changes = 0;
  return {
    settings: null,
    profiles: [],
    error: null,
    async load() {
      const changesBefore = changes;
      await loads.run(
        () => together(api().settings.get(), api().profiles.list()),
        ([settings, profiles]) => ({
          settings: settings.ok && changes === changesBefore ? settings.value : get().settings,
          profiles: profiles.ok ? profiles.value : get().profiles,
          error: (settings.ok ? null : settings.error) ?? (profiles.ok ? null : profiles.error),
        }),
      );
    },
    async update(patch) {
      // Optimistic, so a language switch or rate change is immediate; main's answer wins, unless a
      // newer change started meanwhile: main applies changes in order, so the newer one's answer holds both.
      const mine = ++changes;
      const before = get().settings;
      if (before) set({ settings: { ...before, ...patch, defaults: { ...before.defaults, ...patch.defaults } } });
      const [settings, error] = split(await api().settings.update(patch));
      if (mine !== changes) return error;
      set(settings ? { settings, error: null } : { settings: before, error });
      return error;
    },
    async addProfile(input) {
      const [, error] = split(await api().profiles.add(input));
      if (!error) await get().load();
      return error;
    },
    async removeProfile(id) {
      const [, error] = split(await api().profiles.remove({ id }));
      await get().load();
      return error;
    },
    async activateProfile(id) {
      const [status, error] = split(await api().profiles.activate({ id }));
      if (status) {
        useConnectionStore.setState({ status });
        // Each profile has its own cache: show the new one's transcriptions and dictionaries.
        void useLibraryStore.getState().reload();
        void useDictionariesStore.getState().load();
      }
      await get().load();
      return error;
    },
  };
});

export const selectUiLanguage = (state: SettingsState) => state.settings?.uiLanguage ?? 'en';
export const selectActiveProfile = (state: SettingsState) =>
  state.profiles.find((profile) => profile.id === state.settings?.activeProfileId) ?? null;
