// Turning recognized words back into text. Languages written without spaces between words
// (Japanese, Chinese, Thai...) must not get a space between every recognized unit.

/** ISO 639-1 (and whisper's "yue") codes of languages written without spaces between words. */
export const SPACELESS_LANGUAGES: ReadonlySet<string> = new Set(['ja', 'zh', 'yue', 'th', 'lo', 'my', 'km', 'bo']);

export function isSpaceless(language: string): boolean {
  return SPACELESS_LANGUAGES.has(language.toLowerCase().split(/[-_]/)[0]!);
}

/** What goes between two words, or two segments' texts, in the language: "" or " ". */
export function wordSeparator(language: string): string {
  return isSpaceless(language) ? '' : ' ';
}

/** Joins words as the language writes them. */
export function joinWords(words: readonly { word: string }[], language: string): string {
  return words
    .map((w) => w.word)
    .filter(Boolean)
    .join(wordSeparator(language));
}

/** A document's text: its segments' texts, joined as the language writes them. */
export function joinSegmentTexts(segments: readonly { text: string }[], language: string): string {
  return segments
    .map((s) => s.text)
    .filter(Boolean)
    .join(wordSeparator(language));
}
