import { describe, expect, it } from 'vitest';
import {
  foldForSearch,
  isLanguageCode,
  LANGUAGE_CODES,
  languageList,
  languageName,
  languageOptions,
  needsSpeechModelMessage,
  noSpeechModelMessage,
  searchLanguages,
} from '../../../src-shared/languages.js';

describe('language names', () => {
  it('names a code in English and in Japanese', () => {
    expect(languageName('ja')).toBe('Japanese');
    expect(languageName('JA', 'ja')).toBe('日本語');
    expect(languageName('es', 'ja')).toBe('スペイン語');
    expect(languageName('en', 'en')).toBe('English');
  });

  it('falls back to the code for what has no name', () => {
    expect(languageName('xx')).toBe('xx');
  });

  it('lists several names', () => {
    expect(languageList(['ja'])).toBe('Japanese');
    expect(languageList(['ja', 'ko'])).toBe('Japanese and Korean');
    expect(languageList(['ja', 'ko', 'th'])).toBe('Japanese, Korean, and Thai');
    expect(languageList(['ja', 'ko'], 'ja')).toBe('日本語、韓国語');
  });

  it('knows every ISO 639-1 code once', () => {
    expect(LANGUAGE_CODES).toContain('ja');
    expect(LANGUAGE_CODES).toContain('en');
    expect(new Set(LANGUAGE_CODES).size).toBe(LANGUAGE_CODES.length);
    expect(LANGUAGE_CODES.every((c) => /^[a-z]{2}$/.test(c))).toBe(true);
  });
});

describe('language options and search', () => {
  const en = languageOptions('en');
  const ja = languageOptions('ja');

  it('sorts by the name in the UI language and carries both names', () => {
    const names = en.map((o) => o.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(ja.find((o) => o.code === 'fr')).toEqual({
      code: 'fr',
      name: 'フランス語',
      english: 'French',
      japanese: 'フランス語',
    });
  });

  it('limits the options to the codes given', () => {
    expect(languageOptions('en', ['ja', 'EN', 'en']).map((o) => o.code)).toEqual(['en', 'ja']);
  });

  it('matches the English name, in either UI language', () => {
    expect(searchLanguages(en, 'span')[0]?.code).toBe('es');
    expect(searchLanguages(ja, 'Japanese').map((o) => o.code)).toEqual(['ja']);
    expect(searchLanguages(en, 'GERMAN').map((o) => o.code)).toContain('de');
  });

  it('matches the Japanese name, in katakana, hiragana or kanji', () => {
    expect(searchLanguages(en, 'スペイン')[0]?.code).toBe('es');
    expect(searchLanguages(ja, 'すぺいん')[0]?.code).toBe('es');
    expect(searchLanguages(en, '日本')[0]?.code).toBe('ja');
    expect(searchLanguages(ja, 'にほん')[0]?.code).toBe('ja');
    expect(searchLanguages(ja, 'えいご')[0]?.code).toBe('en');
  });

  it('puts an exact code first, and matches full-width input', () => {
    expect(searchLanguages(en, 'ja')[0]?.code).toBe('ja');
    expect(searchLanguages(en, 'ＫＯ')[0]?.code).toBe('ko');
    expect(foldForSearch(' ＪＡ ')).toBe('ja');
  });

  it('ranks names that start with the query before names that only contain it', () => {
    const codes = searchLanguages(en, 'man').map((o) => o.code);
    expect(codes.indexOf('gv')).toBeGreaterThanOrEqual(0); // Manx
    expect(codes.indexOf('gv')).toBeLessThan(codes.indexOf('de')); // GerMAN
  });

  it('answers everything for an empty query and nothing for a miss', () => {
    expect(searchLanguages(en, '  ')).toHaveLength(en.length);
    expect(searchLanguages(en, 'klingonese')).toEqual([]);
  });
});

describe("the server's words for a language it cannot serve", () => {
  it('names the language and says what to do', () => {
    expect(needsSpeechModelMessage(['ja'])).toBe(
      'Japanese needs a speech model that knows Japanese: install one on the server (kikitori-server models download base), then try again.',
    );
    expect(needsSpeechModelMessage(['ja', 'ko'])).toBe(
      'Japanese and Korean need a speech model that knows them: install one on the server (kikitori-server models download base), then try again.',
    );
    expect(noSpeechModelMessage(['zu'])).toMatch(/^Zulu cannot be transcribed here: no speech model knows it\./);
  });
});

describe('isLanguageCode (the one check of an API `language`)', () => {
  it('takes the ISO 639-1 codes of LANGUAGE_CODES, lower case, and nothing else', () => {
    expect(LANGUAGE_CODES.every(isLanguageCode)).toBe(true);
    expect(isLanguageCode('ja')).toBe(true);
    for (const bad of ['JA', 'jpn', 'xx', '', 'auto', 'und', 'en-US']) expect(isLanguageCode(bad)).toBe(false);
  });
});
