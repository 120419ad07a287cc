import { describe, expect, it } from 'vitest';
import { editDistance } from '../../../../../src-shared/edit-distance.js';
import { PocketsphinxEngine } from '../../../../../src-server/engines/speech/pocketsphinx-engine.js';
import { arpaUnigrams } from '../../../../../src-server/engines/speech/pocketsphinx-vocabulary.js';
import type { RecognizeResult } from '../../../../../src-server/engines/speech/speech-engine.js';
import { concatWithSilence, pcmOf, synthesizeSpeech } from '../../../../support/audio-fixtures.js';

const transcript = (r: RecognizeResult) => r.segments.flatMap((s) => s.words.map((w) => w.word)).join(' ');

describe('pocketsphinx custom vocabulary', () => {
  it('writes a unigram ARPA model with the probability given and improbable sentence markers', () => {
    expect(arpaUnigrams(['zintrix', 'drovana'], Math.log10(0.5))).toBe(
      [
        '\\data\\',
        'ngram 1=4',
        '',
        '\\1-grams:',
        '-99.0000 <s> 0.0000',
        '-99.0000 </s> 0.0000',
        '-0.3010 zintrix 0.0000',
        '-0.3010 drovana 0.0000',
        '',
        '\\end\\',
        '',
      ].join('\n'),
    );
  });

  // Regression: with ps_add_word (unigrams added to sphinxbase 5prealpha's trie LM) a dictionary of
  // ~8-10 invented words spoken in the audio crashed the process (SIGSEGV in lm_trie_score).
  it('decodes many invented words in one file without crashing, each spelled as given', async () => {
    const vocabulary = [
      { word: 'Zintrix', reading: 'zin tricks' },
      { word: 'Drovana', reading: 'drove anna' },
      { word: 'Kelbrant', reading: 'kell brunt' },
      { word: 'Vexolar', reading: 'vex oh ler' },
      { word: 'Talvenor', reading: 'tal vunner' },
      { word: 'Norvatek', reading: 'nor vuh tech' },
      { word: 'Jaxomar', reading: 'jack summer' },
      { word: 'Pelloran', reading: 'pell er in' },
      { word: 'Trulimax', reading: 'true luh max' },
      { word: 'Brimstead', reading: 'brim stead' },
    ];
    const sentences = [
      'Please send the report to Drovana and Pelloran before Friday.',
      'The Norvatek team met Jaxomar at the office.',
      'She bought a Trulimax printer from Kelbrant.',
      'We asked Talvenor about the Vexolar phone.',
      'I had a long meeting with Zintrix and Brimstead.',
    ];
    const pcm = await pcmOf(await concatWithSilence(await Promise.all(sentences.map((s) => synthesizeSpeech(s))), 0.8));
    const engine = new PocketsphinxEngine({ vadLog: () => {} });
    const text = transcript(
      await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary, signal: new AbortController().signal }),
    );
    const found = vocabulary.filter((v) => text.split(' ').includes(v.word));
    expect(found.length).toBeGreaterThanOrEqual(8);
  });

  // Regression (decision 0083): the vocabulary's unigram model was read without the decoder's language
  // weight and insertion penalty, and any word the engine wrote was kept however unsure it was: pocketsphinx
  // put invented words of the dictionary into garbled speech that held none of them ("you'll limae the deal").
  it('puts no dictionary word into speech that holds none of them', async () => {
    const sentences = [
      'Please remember to lock the door when you leave the house.',
      'The children played in the park until it got dark.',
      'The meeting was moved to Thursday because of the holiday.',
      'Let us talk about the travel plans for the summer.',
      'We need two more chairs for the meeting room upstairs.',
      'The store on the corner sells fresh bread every morning.',
      'It took us an hour to find a place to park.',
      'He forgot his keys at home and had to wait outside.',
    ];
    // espeak-ng's voice, which pocketsphinx decodes poorly: where the search doubts, a dictionary word wins.
    const wavs = await Promise.all(sentences.map((s) => synthesizeSpeech(s, undefined, { voice: 'espeak' })));
    const pcm = await pcmOf(await concatWithSilence(wavs, 1));
    // Not "Lezo": "please" in this voice is "lezo" to the engine, and it is sure of it; the gate cannot tell
    // that from a name said clearly (decision 0083).
    const vocabulary = ['Limae', 'Sukus', 'Kritrun', 'Astrivon', 'Fendrik', 'Belvanor', 'Drelwood', 'Tolvanna'].map(
      (word) => ({ word }),
    );
    const engine = new PocketsphinxEngine({ vadLog: () => {} });
    const words = transcript(
      await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary, signal: new AbortController().signal }),
    ).split(' ');
    expect(words.filter((w) => vocabulary.some((v) => v.word === w))).toEqual([]);
  });

  // Regression (decision 0101): a short invented word ("Lezo", four phones) was as likely as any term, more
  // likely than "please", and in espeak-ng's voice pocketsphinx wrote it where "please" was said, sure of it
  // (posterior 1.0, so the confidence gate kept it), changing the words after it too ("lezo like that or" for
  // "please remember to lock the door").
  it('puts no short dictionary word where an everyday word that sounds like it was said', async () => {
    const sentences = [
      'Please remember to lock the door when you leave the house.',
      'The children played in the park until it got dark.',
      'Please check the numbers before you send the email.',
    ];
    const wavs = await Promise.all(sentences.map((s) => synthesizeSpeech(s, undefined, { voice: 'espeak' })));
    const pcm = await pcmOf(await concatWithSilence(wavs, 1));
    const vocabulary = ['Lezo', 'Limae', 'Sukus', 'Kritrun', 'Astrivon', 'Fendrik', 'Belvanor', 'Tolvanna'].map(
      (word) => ({ word }),
    );
    const engine = new PocketsphinxEngine({ vadLog: () => {} });
    const words = transcript(
      await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary, signal: new AbortController().signal }),
    ).split(' ');
    expect(words.filter((w) => vocabulary.some((v) => v.word === w))).toEqual([]);
  });

  it('still writes a short term that was said', async () => {
    const pcm = await pcmOf(await synthesizeSpeech('Send the report to Sukus today.'));
    const engine = new PocketsphinxEngine({ vadLog: () => {} });
    const vocabulary = ['Sukus', 'Lezo', 'Limae'].map((word) => ({ word }));
    const text = transcript(
      await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary, signal: new AbortController().signal }),
    );
    expect(text.split(' ')).toContain('Sukus');
  });

  // Decision 0101: a wrongly heard term changes the words around it too; dropping the term alone left them changed.
  it('with the fallback, puts back what speech without a dictionary gave where the gate dropped a term', async () => {
    const sentences = [
      'The store on the corner sells fresh bread every morning.',
      'Please remember to lock the door when you leave the house.',
    ];
    const wavs = await Promise.all(sentences.map((s) => synthesizeSpeech(s, undefined, { voice: 'espeak' })));
    const pcm = await pcmOf(await concatWithSilence(wavs, 1));
    const signal = new AbortController().signal;
    // Short words as likely as long ones (no length penalty): the engine writes them here, unsure.
    const vocabulary = ['Limae', 'Sukus', 'Kritrun'].map((word) => ({ word }));
    const options = { vadLog: () => {}, vocabularyShortWordPhones: 0 };
    const without = transcript(
      await new PocketsphinxEngine(options).recognize({ pcmPath: pcm, language: 'en', vocabulary: [], signal }),
    );
    const fallback = transcript(
      await new PocketsphinxEngine({ ...options, vocabularyFallback: true }).recognize({
        pcmPath: pcm,
        language: 'en',
        vocabulary,
        signal,
      }),
    );
    const dropped = transcript(
      await new PocketsphinxEngine({ ...options, vocabularyFallback: false }).recognize({
        pcmPath: pcm,
        language: 'en',
        vocabulary,
        signal,
      }),
    );
    // The stretches around the dropped terms come back (a word far from them may still differ).
    const edits = (text: string) => editDistance(text.split(' '), without.split(' '));
    expect(edits(fallback)).toBeLessThan(edits(dropped));
    expect(fallback.split(' ').filter((w) => vocabulary.some((v) => v.word === w))).toEqual([]);
  });
});
