// Settings persisted with conf (the library electron-store is built on): plain Node, for tests and for
// hosts without Electron.
import Conf, { type Schema } from 'conf';
import { defaultSettingsData, settingsSchema, type SettingsData, type SettingsStore } from './settings-store.js';

/** A store over any conf instance (electron-store is one). */
export function settingsStoreOn(conf: Conf<SettingsData>): SettingsStore {
  return {
    read: () => ({ settings: conf.get('settings'), profiles: conf.get('profiles'), speech: conf.get('speech') }),
    write: (data) => conf.set(data),
  };
}

export function confOptions(locale?: string) {
  return {
    // conf's Schema type wants mutable JSON schema objects; ours is a readonly literal.
    schema: settingsSchema as unknown as Schema<SettingsData>,
    defaults: defaultSettingsData(locale),
    clearInvalidConfig: true,
  };
}

/** Settings in `cwd`/`configName`.json. */
export function createConfSettingsStore(options: { cwd: string; configName?: string; locale?: string }): SettingsStore {
  return settingsStoreOn(
    new Conf<SettingsData>({
      cwd: options.cwd,
      configName: options.configName ?? 'settings',
      projectName: 'kikitori',
      ...confOptions(options.locale),
    }),
  );
}
