import { describe, expect, it } from 'vitest';
import {
  ARPABET_PHONES,
  espeakPronunciation,
  espeakPronunciations,
  espeakStatus,
  ipaToArpabet,
  loadCmuDict,
  pronounceVocabulary,
  pronounceWord,
  splitReading,
} from '../../../../../src-server/engines/speech/pronunciation.js';

describe('ipaToArpabet', () => {
  it.each([
    ['z ˈɪ n t ɹ ɪ k s', 'Z IH N T R IH K S'],
    ['dʒ ˈʌ dʒ', 'JH AH JH'], // affricates are one phone
    ['b ˈɔɪ', 'B OY'], // diphthong
    ['h ˈaʊ s', 'HH AW S'],
    ['w ˈɔː ɾ ɚ', 'W AO T ER'], // flap -> T, as CMU writes "water"
    ['b ˈʌ ʔ n̩', 'B AH T AH N'], // glottal stop, syllabic n
    ['θ ˈɪ ŋ', 'TH IH NG'],
    ['kj ˈuː b ɚ n ˌiː t s', 'K Y UW B ER N IY T S'],
  ])('%s -> %s', (ipa, arpa) => {
    expect(ipaToArpabet(ipa).join(' ')).toBe(arpa);
  });
});

describe('espeakPronunciation', () => {
  it('sounds out unknown words in model phones', async () => {
    expect(await espeakPronunciation('Zintrix')).toBe('Z IH N T R IH K S');
    const phones = (await espeakPronunciation('Kubernetes'))!.split(' ');
    expect(phones.every((p) => ARPABET_PHONES.has(p))).toBe(true);
  });

  it('reports a missing espeak-ng clearly', async () => {
    await expect(espeakPronunciation('hello there', '/nonexistent/espeak-ng')).rejects.toThrow(
      /install the Debian package espeak-ng/,
    );
  });
});

describe('espeakPronunciations (one espeak-ng run for many texts)', () => {
  it('pairs each text with its own phones, in one run', async () => {
    const texts = ['Zintrix', 'Ostrevan', 'tremaine ovosky', 'Zintrix'];
    const phones = await espeakPronunciations(texts, { voice: 'en-us' });
    expect(phones.get('Zintrix')?.join(' ')).toBe('Z IH N T R IH K S');
    expect(phones.get('tremaine ovosky')?.join(' ')).toMatch(/^T R EH M EY N OW V AA S K IY$/);
    expect(phones.get('Ostrevan')!.length).toBeGreaterThan(5);
    expect(phones.size).toBe(3);
  });

  it('gives null for what the voice cannot sound out, and never passes markup to espeak-ng', async () => {
    const phones = await espeakPronunciations(['ききとり', '聞き取り', '[[a]]', 'a\nb'], { voice: 'ja' });
    expect(phones.get('ききとり')!.length).toBeGreaterThan(3);
    expect(phones.get('聞き取り')).toBeNull(); // kanji: espeak-ng switches to another language
    expect(phones.get('[[a]]')).toBeNull();
    expect(phones.get('a\nb')).toBeNull();
  });

  it('maps every text to null when espeak-ng is missing, and says so once', async () => {
    const warnings: string[] = [];
    const options = {
      voice: 'en-us',
      espeakBin: '/nonexistent/espeak-ng-batch',
      warn: (m: string) => warnings.push(m),
    };
    // Texts no earlier test sounded out: what a working espeak-ng gave stays cached.
    expect([...(await espeakPronunciations(['Quolvexa'], options)).values()]).toEqual([null]);
    expect([...(await espeakPronunciations(['Brindavel'], options)).values()]).toEqual([null]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/espeak-ng is not installed/);
  });
});

describe('pronounceWord: reading, then CMU dictionary, then espeak-ng', () => {
  it("(a) uses the reading, word by word from the CMU dictionary, and keeps the spelling's as an alternate", async () => {
    expect(await pronounceWord('Kubrix', 'cube ricks')).toEqual({
      word: 'kubrix',
      phones: 'K Y UW B R IH K S',
      source: 'reading',
      alternates: ['K AH B R IH K S'], // espeak-ng's, from the spelling
    });
    // A reading word cmudict lacks ("zin") is itself sounded out; a spelling that sounds the same adds nothing.
    expect(await pronounceWord('Zintrix', 'zin tricks')).toEqual({
      word: 'zintrix',
      phones: 'Z IH N T R IH K S',
      source: 'reading',
    });
    // The style the app's placeholder suggests (decision 0096).
    expect(await pronounceWord('Kikitori', 'key key tory')).toEqual({
      word: 'kikitori',
      phones: 'K IY K IY T AO R IY',
      source: 'reading',
      alternates: ['K IH K IH T AO R IY'],
    });
  });

  it('(a) a reading comes first, before the dictionary entry', async () => {
    expect(await pronounceWord('Nguyen', 'win')).toEqual({
      word: 'nguyen',
      phones: 'W IH N',
      source: 'reading',
      alternates: ['N UW Y EH N'],
    });
  });

  it('(b) falls back to the CMU dictionary entry', async () => {
    expect(await pronounceWord('Nguyen')).toEqual({ word: 'nguyen', phones: 'N UW Y EH N', source: 'cmudict' });
    expect(await pronounceWord('Nguyen', '   ')).toMatchObject({ source: 'cmudict' });
  });

  it('(c) falls back to espeak-ng letter-to-sound', async () => {
    expect(await pronounceWord('Zintrix')).toEqual({ word: 'zintrix', phones: 'Z IH N T R IH K S', source: 'espeak' });
  });

  it('loads the dictionary once', async () => {
    const dict = await loadCmuDict();
    expect(await loadCmuDict()).toBe(dict);
    expect(dict.get('a')).toEqual(['AH', 'EY']); // "a" and "a(2)"
  });
});

describe('phrases', () => {
  it('splits a reading over the phrase words by resemblance', () => {
    expect(splitReading(['New', 'Zintrix'], ['new', 'zin', 'tricks'])).toEqual(['new', 'zin tricks']);
    expect(splitReading(['Zintrix', 'Labs'], ['zin', 'tricks', 'labs'])).toEqual(['zin tricks', 'labs']);
    expect(splitReading(['Zintrix'], ['zin', 'tricks'])).toEqual(['zin tricks']);
    expect(splitReading(['A', 'B', 'C'], ['x', 'y'])).toBeNull();
  });

  it('pronounces each word of a phrase', async () => {
    const [withReading, without] = await pronounceVocabulary([
      { word: 'New Zintrix', reading: 'new zin tricks' },
      { word: 'Zintrix cluster' },
    ]);
    expect(withReading).toEqual({
      spelling: ['New', 'Zintrix'],
      words: [
        { word: 'new', phones: 'N UW', source: 'reading' },
        { word: 'zintrix', phones: 'Z IH N T R IH K S', source: 'reading' },
      ],
    });
    expect(without!.words.map((w) => w?.source)).toEqual(['espeak', 'cmudict']);
  });
});

describe('without espeak-ng', () => {
  it('goes on with readings and the CMU dictionary, and warns once', async () => {
    const warnings: string[] = [];
    const options = { espeakBin: '/nonexistent/espeak-ng-missing', warn: (message: string) => warnings.push(message) };
    const [unknown, known, respelled] = await pronounceVocabulary(
      [{ word: 'Qwuxle' }, { word: 'Zintrix cluster' }, { word: 'Zintrix', reading: 'zin tricks' }],
      options,
    );
    expect(unknown!.words).toEqual([null]);
    expect(known!.words).toEqual([null, expect.objectContaining({ word: 'cluster', source: 'cmudict' })]);
    // "zin" is not in the CMU dictionary, "tricks" is: the reading keeps what the dictionary knows.
    expect(respelled!.words).toEqual([{ word: 'zintrix', phones: 'T R IH K S', source: 'reading' }]);
    expect(await pronounceWord('Blorptang', null, options)).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^espeak-ng is not installed \(\/nonexistent\/espeak-ng-missing was not found\): dictionary words .* Install espeak-ng/,
    );
  });

  it('is reported by espeakStatus, which names the version when it is there', async () => {
    expect(await espeakStatus('/nonexistent/espeak-ng-missing')).toEqual({
      usable: false,
      reason: expect.stringMatching(/^espeak-ng is not installed/),
    });
    expect(await espeakStatus()).toEqual({ usable: true, version: expect.stringMatching(/^\d+\.\d+/) });
  });
});
