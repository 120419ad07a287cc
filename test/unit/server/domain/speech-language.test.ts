import { describe, expect, it } from 'vitest';
import { defaultLanguage, DETECT_LANGUAGE, ticketLanguages } from '../../../../src-server/domain/speech-language.js';
import type { SpeechEngine } from '../../../../src-server/engines/speech/speech-engine.js';

function engine(languages: string[], detects: boolean): SpeechEngine {
  const capabilities = { languages, wordTimestamps: true, customVocabulary: false, speakerSeparation: false };
  const recognize = () => Promise.reject(new Error('not run'));
  return detects
    ? Object.assign({ name: 'detecting', capabilities, recognize }, { detectsLanguage: true })
    : { name: 'fixed', capabilities, recognize };
}

describe('the language default (one rule for the ticket, the job and the OpenAI route)', () => {
  it('asks an engine that detects languages to detect, whatever it knows', () => {
    expect(defaultLanguage(engine(['en', 'ja'], true))).toBe(DETECT_LANGUAGE);
    // The OpenAI route once chose "en" here; every entry point now detects.
    expect(defaultLanguage(engine(['en'], true))).toBe(DETECT_LANGUAGE);
  });

  it('runs any other engine in its first language, English when it names none', () => {
    expect(defaultLanguage(engine(['ja', 'en'], false))).toBe('ja');
    expect(defaultLanguage(engine([], false))).toBe('en');
  });

  it('records the languages asked for, else the default, and none where the engine will detect', () => {
    expect(ticketLanguages(engine(['en', 'ja'], true), ['ja', 'en'])).toEqual(['ja', 'en']);
    expect(ticketLanguages(engine(['en', 'ja'], true), [])).toEqual([]);
    expect(ticketLanguages(engine(['ja'], false), [])).toEqual(['ja']);
  });
});
