// Settings and server profiles on top of a SettingsStore, with API keys sealed by a SecretBox.
import { randomUUID } from 'node:crypto';
import type { ServerProfile, Settings, SettingsPatch } from '../../src-shared/ipc-contract.js';
import { AppFailure } from '../app-failure.js';
import type { SecretBox } from './secret-box.js';
import {
  DEFAULT_UPLOAD_DEFAULTS,
  EMBEDDED_PROFILE_ID,
  type SettingsData,
  type SettingsStore,
  type StoredProfile,
} from './settings-store.js';

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
    if (!this.profile(id))
      throw new AppFailure({ code: 'not-found', message: 'This server profile no longer exists.' });
    const data = this.store.read();
    this.store.write({ ...data, settings: { ...data.settings, activeProfileId: id } });
  }

  addProfile(input: { name: string; baseUrl: string; apiKey: string }): ServerProfile {
    if (!this.secrets.isAvailable()) {
      throw new AppFailure({
        code: 'unsupported',
        message:
          'This system offers no secure storage for the API key (no keyring is running), so Kikitori cannot remember it. Start a keyring service, then try again.',
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
        message: 'The server on this computer cannot be removed.',
      });
    const data = this.store.read();
    if (!data.profiles.some((p) => p.id === id))
      throw new AppFailure({ code: 'not-found', message: 'This server profile no longer exists.' });
    const settings =
      data.settings.activeProfileId === id ? { ...data.settings, activeProfileId: EMBEDDED_PROFILE_ID } : data.settings;
    this.store.write({ ...data, settings, profiles: data.profiles.filter((p) => p.id !== id) });
  }

  /** The decrypted API key of a remote profile. */
  apiKeyOf(id: string): string {
    const stored = this.store.read().profiles.find((p) => p.id === id);
    if (!stored) throw new AppFailure({ code: 'not-found', message: 'This server profile no longer exists.' });
    try {
      return this.secrets.decrypt(Buffer.from(stored.encryptedApiKey, 'base64'));
    } catch {
      throw new AppFailure({
        code: 'unauthorized',
        message:
          'The saved API key can no longer be read on this computer (the system keychain changed). Remove the server in Settings → Servers and add it again.',
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
      message: 'Enter the server address as a URL, such as https://kikitori.example.com.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppFailure({
      code: 'validation',
      field: 'baseUrl',
      message: 'The server address must start with http:// or https://.',
    });
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new AppFailure({
      code: 'validation',
      field: 'baseUrl',
      message: 'The server address must not contain credentials, a query or a fragment.',
    });
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
