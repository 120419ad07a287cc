// Languages by name: the codes the API takes (ISO 639-1), their names in a UI language through
// Intl.DisplayNames, a search over English and Japanese names and the code, and the server's
// messages about a language it cannot serve, worded in the user's terms. Pure: no Node or DOM.
import ISO6391 from 'iso-639-1';
import { JAPANESE_LANGUAGE_NAMES } from './language-names-ja.js';

/** A transcript's language when the engine was asked to detect it and heard nothing to detect it from (BCP 47). */
export const UNDETERMINED_LANGUAGE = 'und';

/** Every ISO 639-1 code, sorted: what the API's `language` accepts. */
export const LANGUAGE_CODES: readonly string[] = [...ISO6391.getAllCodes()].sort();

const CODES = new Set(LANGUAGE_CODES);

/** Whether `code` is one of LANGUAGE_CODES (lower case, as the API keeps them): the one check of a `language`. */
export function isLanguageCode(code: string): boolean {
  return CODES.has(code);
}

const displayNames = new Map<string, Intl.DisplayNames | null>();

function namesIn(locale: string): Intl.DisplayNames | null {
  if (!displayNames.has(locale)) {
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'language', fallback: 'none' });
    } catch {
      // A runtime without Intl.DisplayNames (or this locale): the English name from the code table.
    }
    displayNames.set(locale, names);
  }
  return displayNames.get(locale)!;
}

/** "ja" -> "Japanese" (locale "en") or "日本語" (locale "ja"); the code itself when no name is known. */
export function languageName(code: string, locale = 'en'): string {
  const lower = code.toLowerCase();
  let name: string | undefined;
  try {
    name = namesIn(locale)?.of(lower);
  } catch {
    name = undefined;
  }
  if (name && name.toLowerCase() !== lower) return name;
  // Chromium's ICU lacks about fifty Japanese names: CLDR's, kept in a generated table.
  if (locale.toLowerCase().startsWith('ja') && JAPANESE_LANGUAGE_NAMES[lower]) return JAPANESE_LANGUAGE_NAMES[lower];
  return ISO6391.getName(lower) || code;
}

/** "Japanese", "Japanese and Korean", "Japanese, Korean and Thai". */
export function languageList(codes: readonly string[], locale = 'en'): string {
  const names = codes.map((c) => languageName(c, locale));
  try {
    return new Intl.ListFormat([locale], { style: 'long', type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

export interface LanguageOption {
  code: string;
  /** In the UI language. */
  name: string;
  english: string;
  japanese: string;
}

/**
 * Kana readings of the Japanese names written in kanji, so a search matches while an input method is
 * still composing ("にほん" before it becomes "日本"). Every other Japanese name is katakana already.
 */
const JAPANESE_READINGS: Readonly<Record<string, string>> = {
  ja: 'にほんご',
  en: 'えいご',
  zh: 'ちゅうごくご',
  ko: 'かんこくご',
};

/**
 * The languages `codes` names, once each, sorted by their name in `locale`. CLDR names a few codes
 * after another language they are a form of ("tw", Twi, is "Akan" like "ak"): of two codes with the
 * same name only the one that name belongs to is listed.
 */
export function languageOptions(locale: string, codes: readonly string[] = LANGUAGE_CODES): LanguageOption[] {
  const collator = new Intl.Collator([locale]);
  const options = [...new Set(codes.map((c) => c.toLowerCase()))].map((code) => ({
    code,
    name: languageName(code, locale),
    english: languageName(code, 'en'),
    japanese: languageName(code, 'ja'),
  }));
  const ownName = (option: LanguageOption) => option.english === (ISO6391.getName(option.code) || option.english);
  const byName = new Map<string, LanguageOption>();
  for (const option of options) {
    const other = byName.get(option.name);
    if (!other || (!ownName(other) && ownName(option))) byName.set(option.name, option);
  }
  return [...byName.values()].sort((a, b) => collator.compare(a.name, b.name) || a.code.localeCompare(b.code));
}

/** Case, width and kana folded: "ＪＡ" ~ "ja", "すぺいん" ~ "スペイン". */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u3041-\u3096]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60))
    .trim();
}

/**
 * Options matching `query` by code, English name or Japanese name: an exact code first, then names
 * that start with the query, then names that contain it, each group in the given order.
 */
export function searchLanguages(options: readonly LanguageOption[], query: string): LanguageOption[] {
  const q = foldForSearch(query);
  if (!q) return [...options];
  const rank = (o: LanguageOption): number => {
    if (o.code === q) return 0;
    const names = [o.name, o.english, o.japanese, JAPANESE_READINGS[o.code] ?? ''].filter(Boolean).map(foldForSearch);
    if (names.some((n) => n.startsWith(q) || n.split(/[\s(),]+/).some((w) => w.startsWith(q)))) return 1;
    if (names.some((n) => n.includes(q))) return 2;
    return -1;
  };
  return options
    .map((o, i) => ({ o, i, r: rank(o) }))
    .filter((x) => x.r >= 0)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.o);
}

// ---------- the server's words for a language it cannot serve (English, for API clients and logs) ----------

const verb = (codes: readonly string[]) => (codes.length === 1 ? 'needs' : 'need');

/**
 * A language some speech model knows, but not the one serving now: "Japanese needs a speech model that
 * knows Japanese: install one on the server (kikitori-server models download base), then try again." Said
 * to API clients, who may have no app and so no Settings; the app shows its own words by the error code
 * ('library.upload.languageRefused') and this text only under Details.
 */
export function needsSpeechModelMessage(codes: readonly string[]): string {
  const list = languageList(codes);
  return (
    `${list} ${verb(codes)} a speech model that knows ${codes.length === 1 ? list : 'them'}: install one on the ` +
    'server (kikitori-server models download base), then try again.'
  );
}

/** A language no speech model here knows. */
export function noSpeechModelMessage(codes: readonly string[]): string {
  const list = languageList(codes);
  return `${list} cannot be transcribed here: no speech model knows ${codes.length === 1 ? 'it' : 'them'}. Choose the language spoken in the recording from the list.`;
}

// ---------- the app's language choice: one code, several, or none ----------

/** A language choice as the upload options and settings keep it (the API's `language` shape). */
export type LanguageChoice = string | string[] | null;

export function codesOfChoice(choice: LanguageChoice | undefined): string[] {
  if (!choice) return [];
  return Array.isArray(choice) ? choice : [choice];
}

export function choiceOfCodes(codes: readonly string[]): LanguageChoice {
  if (codes.length === 0) return null;
  return codes.length === 1 ? codes[0]! : [...codes];
}
