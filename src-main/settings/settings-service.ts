// Settings and server profiles on top of a SettingsStore, with API keys sealed by a SecretBox.
import { randomUUID } from 'node:crypto';
import {
  DEFAULT_UPLOAD_DEFAULTS,
  type ServerProfile,
  type Settings,
  type SettingsPatch,
} from '../../src-shared/ipc-contract.js';
import { AppFailure } from '../app-failure.js';
import type { SecretBox } from './secret-box.js';
import { EMBEDDED_PROFILE_ID, type SettingsData, type SettingsStore, type StoredProfile } from './settings-store.js';

export class SettingsService {
  constructor(
    private readonly store: SettingsStore,
    private readonly secrets: SecretBox,
    /** The embedded server's current address ('' until it has started). */
    private readonly embeddedUrl: () => string,
  ) {}

  settings(): Settings {
    return withAllDefaults(this.store.read().settings);
  }

  updateSettings(patch: SettingsPatch): Settings {
    const data = this.store.read();
    const settings: Settings = {
      ...data.settings,
      ...patch,
      defaults: { ...withAllDefaults(data.settings).defaults, ...patch.defaults },
      activeProfileId: data.settings.activeProfileId,
    };
    this.store.write({ ...data, settings });
    return settings;
  }

  /** The first-run offer of a speech model was dismissed (shown once, never again). */
  speechOfferDismissed(): boolean {
    return this.store.read().speech.offerDismissed;
  }

  dismissSpeechOffer(): void {
    const data = this.store.read();
    this.store.write({ ...data, speech: { ...data.speech, offerDismissed: true } });
  }

  embeddedProfile(): ServerProfile {
    return { id: EMBEDDED_PROFILE_ID, name: 'This computer', kind: 'embedded', baseUrl: this.embeddedUrl() };
  }

  profiles(): ServerProfile[] {
    return [
      this.embeddedProfile(),
      ...this.store.read().profiles.map(({ encryptedApiKey: _, confirmed: __, ...profile }) => profile),
    ];
  }

  profile(id: string): ServerProfile | null {
    return this.profiles().find((p) => p.id === id) ?? null;
  }

  activeProfileId(): string {
    const id = this.settings().activeProfileId;
    return this.profile(id) ? id : EMBEDDED_PROFILE_ID;
  }

  setActiveProfile(id: string): void {
    if (!this.profile(id)) throw new AppFailure({ code: 'not-found', reason: 'profile-not-found' });
    const data = this.store.read();
    this.store.write({ ...data, settings: { ...data.settings, activeProfileId: id } });
  }

  addProfile(input: { name: string; baseUrl: string; apiKey: string }): ServerProfile {
    if (!this.secrets.isAvailable()) {
      throw new AppFailure({
        code: 'unsupported',
        reason: 'no-keyring',
      });
    }
    const baseUrl = normaliseBaseUrl(input.baseUrl);
    const data: SettingsData = this.store.read();
    const profile: StoredProfile = {
      id: randomUUID(),
      name: input.name.trim(),
      kind: 'remote',
      baseUrl,
      encryptedApiKey: this.secrets.encrypt(input.apiKey.trim()).toString('base64'),
    };
    this.store.write({ ...data, profiles: [...data.profiles, profile] });
    const { encryptedApiKey: _, ...visible } = profile;
    return visible;
  }

  /** The user has let Kikitori send to this profile's server (the embedded one needs no asking). */
  serverConfirmed(id: string): boolean {
    if (id === EMBEDDED_PROFILE_ID) return true;
    return this.store.read().profiles.find((p) => p.id === id)?.confirmed === true;
  }

  confirmServer(id: string): void {
    const data = this.store.read();
    this.store.write({ ...data, profiles: data.profiles.map((p) => (p.id === id ? { ...p, confirmed: true } : p)) });
  }

  removeProfile(id: string): void {
    if (id === EMBEDDED_PROFILE_ID)
      throw new AppFailure({
        code: 'validation',
        field: 'id',
        reason: 'embedded-not-removable',
      });
    const data = this.store.read();
    if (!data.profiles.some((p) => p.id === id))
      throw new AppFailure({ code: 'not-found', reason: 'profile-not-found' });
    const settings =
      data.settings.activeProfileId === id ? { ...data.settings, activeProfileId: EMBEDDED_PROFILE_ID } : data.settings;
    this.store.write({ ...data, settings, profiles: data.profiles.filter((p) => p.id !== id) });
  }

  /** The decrypted API key of a remote profile. */
  apiKeyOf(id: string): string {
    const stored = this.store.read().profiles.find((p) => p.id === id);
    if (!stored) throw new AppFailure({ code: 'not-found', reason: 'profile-not-found' });
    try {
      return this.secrets.decrypt(Buffer.from(stored.encryptedApiKey, 'base64'));
    } catch {
      throw new AppFailure({
        code: 'unauthorized',
        reason: 'key-unreadable',
      });
    }
  }
}

/** Settings written before a default existed get its initial value. */
function withAllDefaults(settings: Settings): Settings {
  return { ...settings, defaults: { ...DEFAULT_UPLOAD_DEFAULTS, ...settings.defaults } };
}

/** "https://host:8080/" -> "https://host:8080"; anything that is not http(s) is refused. */
export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppFailure({
      code: 'validation',
      field: 'baseUrl',
      reason: 'url-invalid',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppFailure({
      code: 'validation',
      field: 'baseUrl',
      reason: 'url-scheme',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new AppFailure({
      code: 'validation',
      field: 'baseUrl',
      reason: 'url-parts',
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
