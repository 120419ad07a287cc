// What a dictionary word's reading may hold: the one rule the server enforces on every word it takes
// (dictionaries, an upload's ad-hoc words, a live session's words) and main checks a pasted import
// against before sending anything. No imports: every layer may use it.

/**
 * After NFKC: letters of any script (kana included), their marks, spaces, hyphens, apostrophes and the
 * kana middle dot, with at least one letter. Anything else cannot be sounded out: the engines dropped it
 * silently and the word got a pronunciation from what was left, or none.
 */
const PRONOUNCEABLE = /^[\p{L}\p{M} '\u2019\u30fb-]*\p{L}[\p{L}\p{M} '\u2019\u30fb-]*$/u;

/** Whether a reading can be sounded out; an absent or blank reading is no reading and passes. */
export function isPronounceableReading(reading: string | null | undefined): boolean {
  const normalized = reading?.normalize('NFKC').trim();
  return !normalized || PRONOUNCEABLE.test(normalized);
}
