// The phonetic matcher on fixed ARPAbet phones (as the CMU dictionary and espeak-ng give them), and the
// vocabulary stage around it on real pronunciations (CMU dictionary, espeak-ng).
import { describe, expect, it } from 'vitest';
import type { TranscriptSegment } from '../../../../../src-shared/transcript-document.js';
import {
  findTermMatches,
  phoneSimilarity,
  type HeardWord,
  type PhoneticTerm,
} from '../../../../../src-server/engines/vocabulary/phonetic-matcher.js';
import {
  DEFAULT_VOCABULARY_THRESHOLD,
  PhoneticVocabularyStage,
} from '../../../../../src-server/engines/vocabulary/phonetic-vocabulary-stage.js';

const term = (text: string, phones: string): PhoneticTerm => ({
  text,
  words: text.toLowerCase().split(' '),
  phones: phones.split(' '),
});
/** "word:PHONES" pairs; confidence 0.6 unless given. */
const heard = (...words: Array<[string, string | null, number?]>): HeardWord[] =>
  words.map(([word, phones, confidence]) => ({
    word,
    phones: phones?.split(' ') ?? null,
    confidence: confidence ?? 0.6,
  }));

const OSTREVAN = term('Ostrevan', 'AA S T R IH V AE N');
const ASTRIVON = term('Astrivon', 'AE S T R IH V AH N');
const TREMAINE = term('Tremaine Ovosky', 'T R EH M EY N OW V AA S K IY');
const ZINTRIX = term('Zintrix', 'Z IH N T R IH K S');
const options = {
  threshold: DEFAULT_VOCABULARY_THRESHOLD,
  maxSpan: 3,
  commonWords: new Set(['to', 'the', 'of', 'go']),
};
const rewrites = (words: HeardWord[], terms: PhoneticTerm[]) =>
  findTermMatches(words, terms, options).map((m) => [
    words
      .slice(m.start, m.end)
      .map((w) => w.word)
      .join(' '),
    m.term.text,
  ]);

describe('findTermMatches', () => {
  it('tells two similar terms apart by the closer pronunciation', () => {
    const terms = [OSTREVAN, ASTRIVON];
    expect(rewrites(heard(['we', 'W IY'], ['oster', 'AA S T ER'], ['van', 'V AE N']), terms)).toEqual([
      ['oster van', 'Ostrevan'],
    ]);
    expect(rewrites(heard(['astra', 'AE S T R AH'], ['von', 'V AO N'], ['today', 'T AH D EY']), terms)).toEqual([
      ['astra von', 'Astrivon'],
    ]);
    // Astrivon heard as itself is already a dictionary word: it is not "corrected" into its neighbour.
    expect(rewrites(heard(['met', 'M EH T'], ['astrivon', 'AE S T R IH V AH N']), terms)).toEqual([]);
  });

  it('rejoins a two-word name the engine split into other words', () => {
    const words = heard(['with', 'W IH DH'], ['to', 'T UW'], ['remain', 'R IH M EY N'], ['ovosky', 'OW V AA S K IY']);
    expect(rewrites(words, [TREMAINE, OSTREVAN])).toEqual([['to remain ovosky', 'Tremaine Ovosky']]);
  });

  it('never rewrites common words alone, nor inserts a term where nothing is close', () => {
    const tuvo = term('Tugo', 'T UW G OW');
    expect(phoneSimilarity('T UW G OW'.split(' '), tuvo.phones)).toBeGreaterThan(DEFAULT_VOCABULARY_THRESHOLD);
    expect(rewrites(heard(['to', 'T UW'], ['go', 'G OW']), [tuvo])).toEqual([]);
    const meeting = heard(
      ['the', 'DH AH'],
      ['budget', 'B AH JH IH T'],
      ['meeting', 'M IY T IH NG'],
      ['next', 'N EH K S T'],
      ['week', 'W IY K'],
    );
    expect(rewrites(meeting, [OSTREVAN, ASTRIVON, TREMAINE, ZINTRIX])).toEqual([]);
  });

  it('skips words without a pronunciation and terms too short to tell from anything', () => {
    expect(rewrites(heard(['zin', null], ['tricks', 'T R IH K S']), [ZINTRIX])).toEqual([]);
    expect(rewrites(heard(['the', 'DH AH'], ['tricks', 'T R IH K S']), [ZINTRIX])).toEqual([]);
    expect(rewrites(heard(['zen', 'Z EH N'], ['tricks', 'T R IH K S']), [ZINTRIX])).toEqual([
      ['zen tricks', 'Zintrix'],
    ]);
    expect(rewrites(heard(['tia', 'T IY AH']), [term('Thea', 'TH IY AH')])).toEqual([]);
  });

  it('asks more of a run of one whole word than of a name broken into pieces', () => {
    const dunmarrow = term('Dunmarrow', 'D AH N M AH R OW');
    const tomorrow = heard(['rain', 'R EY N', 0.9], ['tomorrow', 'T AH M AA R OW', 0.2], ['afternoon', null, 0.9]);
    const at = (singleWordMargin: number) =>
      findTermMatches(tomorrow, [dunmarrow], { ...options, threshold: 0.84, singleWordMargin }).length;
    expect(at(0)).toBe(1);
    expect(at(0.04)).toBe(0);
    // The same sounds as two short words still make the name.
    const pieces = heard(['done', 'D AH N', 0.2], ['marrow', 'M EH R OW', 0.2]);
    expect(findTermMatches(pieces, [dunmarrow], { ...options, threshold: 0.84, singleWordMargin: 0.04 })).toHaveLength(
      1,
    );
  });

  it('lets a doubtful run pass where a confident one of the same sound does not', () => {
    const close = term('Kelbrant', 'K EH L B R AE N T');
    const confident = heard(['kill', 'K IH L', 1], ['brand', 'B R AE N D', 1]);
    const doubtful = heard(['kill', 'K IH L', 0], ['brand', 'B R AE N D', 0]);
    const [a] = findTermMatches(confident, [close], { ...options, threshold: 0 });
    const [b] = findTermMatches(doubtful, [close], { ...options, threshold: 0 });
    expect(b!.score).toBeGreaterThan(a!.score);
  });
});

const segment = (words: Array<[string, number, number, number | null]>): TranscriptSegment => ({
  id: 0,
  start: words[0]![1],
  end: words.at(-1)![2],
  speaker: null,
  text: words.map(([w]) => w).join(' '),
  words: words.map(([word, start, end, confidence]) => ({ word, start, end, confidence })),
});

describe('PhoneticVocabularyStage', () => {
  const stage = new PhoneticVocabularyStage();

  it('rewrites a run to the term, keeps its times and punctuation, and marks what was heard', async () => {
    const { segments, rewritten } = await stage.apply(
      [
        segment([
          ['I', 0, 0.2, 0.9],
          ['met', 0.2, 0.5, 0.9],
          ['zen', 0.5, 0.8, 0.4],
          ['tricks,', 0.8, 1.2, 0.5],
          ['today', 1.3, 1.7, 0.9],
        ]),
      ],
      [{ word: 'Zintrix' }, { word: 'Ostrevan' }],
      'en',
    );
    expect(rewritten).toBe(1);
    expect(segments[0]!.text).toBe('I met Zintrix, today');
    expect(segments[0]!.words[2]).toEqual({
      word: 'Zintrix,',
      start: 0.5,
      end: 1.2,
      confidence: 0.4,
      replaced: { pattern: 'Zintrix', original: 'zen tricks,', source: 'vocabulary' },
    });
  });

  it('finds a Japanese term by its kana reading', async () => {
    const words: Array<[string, number, number, number | null]> = [
      ['明日', 0, 0.4, 0.9],
      ['よし', 0.4, 0.6, 0.5],
      ['だ', 0.6, 0.7, 0.5],
      ['せい', 0.7, 0.9, 0.5],
      ['き', 0.9, 1.0, 0.5],
      ['に', 1.0, 1.1, 0.9],
      ['行きます', 1.1, 1.6, 0.9],
    ];
    const { segments } = await stage.apply(
      [{ ...segment(words), text: words.map(([w]) => w).join('') }],
      [{ word: '吉田精機', reading: 'よしだせいき' }],
      'ja',
    );
    expect(segments[0]!.text).toBe('明日吉田精機に行きます');
    expect(segments[0]!.words[1]).toMatchObject({
      word: '吉田精機',
      start: 0.4,
      end: 1.0,
      replaced: { pattern: '吉田精機', original: 'よしだせいき', source: 'vocabulary' },
    });
  });

  it('leaves ordinary words to the engine: a dictionary word it already knows is never a target', async () => {
    const plans = segment([
      ['the', 0, 0.2, 0.9],
      ['plans', 0.2, 0.6, 0.5],
      ['changed', 0.6, 1, 0.9],
    ]);
    expect((await stage.apply([plans], [{ word: 'plan' }, { word: 'Zintrix' }], 'en')).rewritten).toBe(0);
  });

  it('leaves words a forced replacement wrote, and languages it has no pronunciations for', async () => {
    const replaced = segment([['zen', 0, 0.3, 0.5]]);
    replaced.words = [
      { word: 'Zen', start: 0, end: 0.3, confidence: 0.5, replaced: { pattern: 'zen', original: 'zen' } },
      { word: 'tricks', start: 0.3, end: 0.6, confidence: 0.5 },
    ];
    expect((await stage.apply([replaced], [{ word: 'Zintrix' }], 'en')).rewritten).toBe(0);
    const german = segment([
      ['zen', 0, 0.3, 0.5],
      ['tricks', 0.3, 0.6, 0.5],
    ]);
    expect((await stage.apply([german], [{ word: 'Zintrix' }], 'de')).rewritten).toBe(0);
  });
});
