// Settings persisted with electron-store in the app's user data dir. electron-store imports electron,
// so this file stays tiny and is exercised only in the app (conf-settings-store.ts is the tested twin).
import ElectronStore from 'electron-store';
import { confOptions, settingsStoreOn } from './conf-settings-store.js';
import type { SettingsData, SettingsStore } from './settings-store.js';

export function createElectronSettingsStore(locale?: string): SettingsStore {
  return settingsStoreOn(new ElectronStore<SettingsData>({ name: 'settings', ...confOptions(locale) }));
}
