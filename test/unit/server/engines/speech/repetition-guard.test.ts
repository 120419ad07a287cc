import { describe, expect, it } from 'vitest';
import {
  compressionRatio,
  findRepetition,
  isLooping,
  trimRepeatedBytes,
  trimRepetitions,
} from '../../../../../src-server/engines/speech/repetition-guard.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('repetition guard', () => {
  const speech = 'We will meet at the office after lunch to review the budget, and then she drove to the beach.';
  const loop = `${speech} Thank you. Thank you. Thank you. Thank you. Thank you. Thank you.`;

  it('measures the gzip compression ratio, as openai-whisper does', () => {
    expect(compressionRatio('')).toBe(0);
    expect(compressionRatio(speech)).toBeLessThan(2.4);
    expect(
      compressionRatio(
        'the the the the the the the the the the the the the the the the the the the the the the the the',
      ),
    ).toBeGreaterThan(2.4);
  });

  it('finds a phrase repeated back to back, ignoring case and punctuation, but not ordinary repeats', () => {
    expect(findRepetition(words(loop))).toEqual({ start: 19, length: 2, count: 6 });
    expect(findRepetition(words(speech))).toBeNull();
    expect(findRepetition(words('no no no, I said very very good'))).toBeNull();
    expect(isLooping(speech, words(speech))).toBe(false);
    expect(isLooping(loop, words(loop))).toBe(true);
    // Characters, for languages written without spaces.
    const japanese = 'ありがとうございます。ありがとうございます。ありがとうございます。';
    expect(findRepetition([...japanese])).toMatchObject({ start: 0, length: 11, count: 3 });
  });

  it('keeps the first copy of each loop and everything else', () => {
    const units = words(`${loop} Goodbye now.`);
    const kept = trimRepetitions(units).map((i) => units[i]);
    expect(kept.join(' ')).toBe(`${speech} Thank you. Goodbye now.`);
    expect(trimRepetitions(words(speech))).toEqual(words(speech).map((_, i) => i));
  });

  it('cuts a loop of the same text split into other tokens each time, judged on the bytes', () => {
    const pieces = ['We', ' met', ' mito', 'kamo', 'mi', 'tokamo', 'mito', 'ka', 'mo', 'mitokamo', ' today'];
    const bytes = pieces.map((p) => new TextEncoder().encode(p));
    // Token by token, no piece repeats back to back three times: only the bytes show the loop.
    expect(findRepetition(pieces)).toBeNull();
    const kept = trimRepeatedBytes(bytes).map((i) => pieces[i]);
    expect(kept.join('')).toBe('We met mitokamo today');
    // Japanese, three bytes a character, repeated in other splits.
    const japanese = ['ありが', 'とう', 'あり', 'がとう', 'ありがとう', '。'];
    const keptJa = trimRepeatedBytes(japanese.map((p) => new TextEncoder().encode(p))).map((i) => japanese[i]);
    expect(keptJa.join('')).toBe('ありがとう。');
    // Ordinary speech, and empty pieces, stay whole.
    const plain = ['', ...words(speech).map((w) => ` ${w}`)];
    expect(trimRepeatedBytes(plain.map((p) => new TextEncoder().encode(p)))).toEqual(plain.map((_, i) => i));
  });
});
