import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { createConfSettingsStore } from '../../../../src-main/settings/conf-settings-store.js';
import { createAesGcmSecretBox } from '../../../../src-main/settings/secret-box.js';
import { normaliseBaseUrl, SettingsService } from '../../../../src-main/settings/settings-service.js';
import { tempDir } from '../../../support/temp-dir.js';
import { LIMITS } from '../../../../src-shared/limits.js';

const TEST_KEY = Buffer.alloc(32, 7);

describe('settings', () => {
  const dir = tempDir('kikitori-settings-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const service = (sub: string, locale = 'en-US') =>
    new SettingsService(
      createConfSettingsStore({ cwd: path.join(dir, sub), locale }),
      createAesGcmSecretBox(TEST_KEY),
      () => 'http://127.0.0.1:4321',
    );

  it('starts from typed defaults with the embedded server active', () => {
    const s = service('defaults', 'ja-JP');
    expect(s.settings()).toEqual({
      activeProfileId: 'embedded',
      uiLanguage: 'ja',
      defaults: {
        language: null,
        model: 'default',
        numSpeakers: null,
        minSpeakers: null,
        maxSpeakers: null,
        dictionaryId: null,
      },
      playbackRate: 1,
      notifications: true,
    });
    expect(s.profiles()).toEqual([
      { id: 'embedded', name: 'This computer', kind: 'embedded', baseUrl: 'http://127.0.0.1:4321' },
    ]);
  });

  it('persists updates, and the schema refuses what the types forbid', () => {
    const s = service('updates');
    s.updateSettings({ playbackRate: 1.5, defaults: { language: 'en', model: 'diarization-high', numSpeakers: 2 } });
    expect(service('updates').settings()).toMatchObject({
      playbackRate: 1.5,
      defaults: { language: 'en', model: 'diarization-high', numSpeakers: 2 },
    });
    expect(() => s.updateSettings({ playbackRate: 99 })).toThrow();
    expect(service('updates').settings().playbackRate).toBe(1.5);
  });

  it('remembers every upload option but the ad-hoc words, and reads files written before they existed', () => {
    const s = service('upload-defaults');
    s.updateSettings({
      defaults: {
        model: 'diarization-high',
        numSpeakers: null,
        minSpeakers: 2,
        maxSpeakers: 4,
        dictionaryId: 'dict-1',
      },
    });
    expect(service('upload-defaults').settings().defaults).toEqual({
      language: null,
      model: 'diarization-high',
      numSpeakers: null,
      minSpeakers: 2,
      maxSpeakers: 4,
      dictionaryId: 'dict-1',
    });
    // The speaker limit is the shared one.
    expect(() => s.updateSettings({ defaults: { maxSpeakers: LIMITS.speakers.max + 1 } })).toThrow();

    const oldDir = path.join(dir, 'old-file');
    fs.mkdirSync(oldDir, { recursive: true });
    const before = {
      activeProfileId: 'embedded',
      uiLanguage: 'en',
      defaults: { language: 'ja', model: 'default', numSpeakers: 3 },
      playbackRate: 1,
      notifications: true,
    };
    fs.writeFileSync(
      path.join(oldDir, 'settings.json'),
      JSON.stringify({ settings: before, profiles: [], speech: { offerDismissed: true } }),
    );
    const old = service('old-file');
    expect(old.settings().defaults).toEqual({
      language: 'ja',
      model: 'default',
      numSpeakers: 3,
      minSpeakers: null,
      maxSpeakers: null,
      dictionaryId: null,
    });
    expect(old.speechOfferDismissed()).toBe(true);
    old.updateSettings({ defaults: { numSpeakers: null, maxSpeakers: 5 } });
    expect(service('old-file').settings().defaults).toMatchObject({
      language: 'ja',
      numSpeakers: null,
      minSpeakers: null,
      maxSpeakers: 5,
    });
  });

  it('never stores an API key in clear', () => {
    const s = service('keys');
    const apiKey = `kk_${randomBytes(24).toString('hex')}`;
    const profile = s.addProfile({ name: 'Team server', baseUrl: 'https://kikitori.example.com/', apiKey });
    expect(profile).toEqual({
      id: expect.any(String),
      name: 'Team server',
      kind: 'remote',
      baseUrl: 'https://kikitori.example.com',
    });
    const onDisk = fs.readFileSync(path.join(dir, 'keys', 'settings.json'), 'utf8');
    expect(onDisk).not.toContain(apiKey);
    expect(onDisk).not.toContain(Buffer.from(apiKey).toString('base64'));
    expect(JSON.stringify(s.profiles())).not.toContain(apiKey);
    expect(s.apiKeyOf(profile.id)).toBe(apiKey);
    // Another key (another machine's keychain) cannot read it.
    const elsewhere = new SettingsService(
      createConfSettingsStore({ cwd: path.join(dir, 'keys') }),
      createAesGcmSecretBox(Buffer.alloc(32, 9)),
      () => '',
    );
    expect(() => elsewhere.apiKeyOf(profile.id)).toThrow(AppFailure);
  });

  it('refuses to remember a key without secure storage', () => {
    const s = new SettingsService(
      createConfSettingsStore({ cwd: path.join(dir, 'nokeyring') }),
      { ...createAesGcmSecretBox(TEST_KEY), isAvailable: () => false },
      () => '',
    );
    expect(() => s.addProfile({ name: 'x', baseUrl: 'https://x.example', apiKey: 'k' })).toThrow(/app\.no-keyring/);
  });

  it('switches profiles, and falls back to the embedded server when the active one is removed', () => {
    const s = service('profiles');
    const remote = s.addProfile({ name: 'Remote', baseUrl: 'http://10.0.0.2:8080', apiKey: 'k' });
    s.setActiveProfile(remote.id);
    expect(s.activeProfileId()).toBe(remote.id);
    s.removeProfile(remote.id);
    expect(s.activeProfileId()).toBe('embedded');
    expect(() => s.removeProfile('embedded')).toThrow(AppFailure);
  });

  it('accepts only plain http(s) server addresses', () => {
    expect(normaliseBaseUrl(' https://host:8443/kikitori/ ')).toBe('https://host:8443/kikitori');
    for (const bad of ['ftp://host', 'not a url', 'https://user:pw@host', 'https://host/?q=1']) {
      expect(() => normaliseBaseUrl(bad)).toThrow(AppFailure);
    }
  });
});
