// The one reading rule: the server refuses by it, main checks a pasted import by it.
import { describe, expect, it } from 'vitest';
import { isPronounceableReading } from '../../../src-shared/word-reading.js';

describe('isPronounceableReading', () => {
  it('takes letters of any script, kana, and the separators a reading is written with', () => {
    for (const reading of [
      'zin tricks',
      'ききとり',
      'キキ・トリ',
      "o'neil",
      'jean-luc',
      'ｚｉｎ',
      'ā',
      undefined,
      null,
      '  ',
    ])
      expect(isPronounceableReading(reading), String(reading)).toBe(true);
  });

  it('refuses digits, symbols and separators alone', () => {
    for (const reading of ['123', 'zin@tricks', 'ｘｘ@@##', '- -', "'", 'k1k1'])
      expect(isPronounceableReading(reading), reading).toBe(false);
  });
});
