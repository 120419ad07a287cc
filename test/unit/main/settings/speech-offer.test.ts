import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createConfSettingsStore } from '../../../../src-main/settings/conf-settings-store.js';
import { createAesGcmSecretBox } from '../../../../src-main/settings/secret-box.js';
import { SettingsService } from '../../../../src-main/settings/settings-service.js';
import { tempDir } from '../../../support/temp-dir.js';

describe('the speech-model offer in the settings store', () => {
  const dir = tempDir('kikitori-speech-offer-');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const service = (sub: string) =>
    new SettingsService(
      createConfSettingsStore({ cwd: path.join(dir, sub) }),
      createAesGcmSecretBox(Buffer.alloc(32, 3)),
      () => 'http://127.0.0.1:1',
    );

  it('is not dismissed at first; a dismissal survives a restart and leaves the other settings alone', () => {
    const s = service('fresh');
    s.updateSettings({ playbackRate: 1.25 });
    expect(s.speechOfferDismissed()).toBe(false);
    s.dismissSpeechOffer();
    const reopened = service('fresh');
    expect(reopened.speechOfferDismissed()).toBe(true);
    expect(reopened.settings().playbackRate).toBe(1.25);
    reopened.updateSettings({ notifications: false });
    expect(service('fresh').speechOfferDismissed()).toBe(true);
  });

  it('a settings file written before the offer existed stays valid and is not cleared', () => {
    const cwd = path.join(dir, 'older');
    fs.mkdirSync(cwd, { recursive: true });
    const older = {
      settings: {
        activeProfileId: 'embedded',
        uiLanguage: 'ja',
        defaults: { language: 'ja', model: 'default', numSpeakers: 3 },
        playbackRate: 1.5,
        notifications: false,
      },
      profiles: [],
    };
    fs.writeFileSync(path.join(cwd, 'settings.json'), JSON.stringify(older));
    const s = service('older');
    // Every value it held is kept; upload defaults added since (decision 0029) read as unset.
    expect(s.settings()).toEqual({
      ...older.settings,
      defaults: { ...older.settings.defaults, minSpeakers: null, maxSpeakers: null, dictionaryId: null },
    });
    expect(s.speechOfferDismissed()).toBe(false);
  });

  it('remembers the last subtitle export options, and refuses ones out of bounds', () => {
    const s = service('subtitles');
    const subtitleExport = {
      maxCharsPerLine: null,
      maxLinesPerCue: 1,
      maxCueDuration: 5,
      minGap: 0.1,
      speakerStyle: 'prefix' as const,
      translation: 'fr',
    };
    s.updateSettings({ subtitleExport });
    expect(service('subtitles').settings().subtitleExport).toEqual(subtitleExport);
    expect(() => s.updateSettings({ subtitleExport: { ...subtitleExport, maxLinesPerCue: 9 } })).toThrow();
    expect(service('subtitles').settings().subtitleExport).toEqual(subtitleExport);
  });
});
