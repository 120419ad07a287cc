// The `language` option of an upload and of transcribing again: one code or a list, each an ISO 639-1
// code (any case); answered lower case, each once. A code the schema let through but no language has: 400.
import { isLanguageCode } from '../../../../src-shared/languages.js';
import { errors } from '../../../application/errors.js';

export function languageOption(language: string | string[] | undefined): string[] {
  const requested = language === undefined ? [] : Array.isArray(language) ? language : [language];
  const languages = [...new Set(requested.map((l) => l.toLowerCase()))];
  const unknown = languages.filter((l) => !isLanguageCode(l));
  if (unknown.length > 0) {
    const at = requested.findIndex((l) => !isLanguageCode(l.toLowerCase()));
    throw errors.validation(
      `language: ${unknown.join(', ')} is not an ISO 639-1 code (for example "en" or "ja").`,
      Array.isArray(language) ? `language.${at}` : 'language',
    );
  }
  return languages;
}

/** A speaker count as the body gave it (a number, or a numeric string the schema checked). */
export const count = (value: number | string | undefined): number | null =>
  value === undefined ? null : Number(value);
