// What a transcript can be translated into, by what each target needs: the engine translationFor() would
// pick decides, so the list the app shows is the routing the server does.
import { describe, expect, it } from 'vitest';
import type { TranslationEngine } from '../../../../../src-server/domain/analysis-engines.js';
import { AnalysisEngineRegistry } from '../../../../../src-server/engines/analysis/analysis-registry.js';
import { ApertiumTranslationEngine } from '../../../../../src-server/engines/translation/apertium-engine.js';

const apertium = new ApertiumTranslationEngine({ modes: ['eng-spa', 'spa-eng', 'eng-cat', 'en-eo'] });
// The LLM engine's shape without its endpoint: only what it says it supports matters here.
const llm: TranslationEngine = {
  name: 'llm',
  offline: false,
  targets: () => 'any',
  translate: () => Promise.reject(new Error('not called')),
};
const registry = (...translation: TranslationEngine[]) => new AnalysisEngineRegistry([], [], translation);

describe('translationChoices', () => {
  it('lists the installed pairs from the source as offline, sorted, and no LLM without an endpoint', () => {
    expect(registry(apertium).translationChoices('en')).toEqual({
      offline: ['ca', 'eo', 'es'],
      llm: [],
      llmAnyLanguage: false,
    });
    expect(registry(apertium).translationChoices('es')).toEqual({ offline: ['en'], llm: [], llmAnyLanguage: false });
    expect(registry(apertium).translationChoices('ja')).toEqual({ offline: [], llm: [], llmAnyLanguage: false });
  });

  it('keeps the pairs offline when apertium comes first, and the rest through the LLM', () => {
    expect(registry(apertium, llm).translationChoices('en')).toEqual({
      offline: ['ca', 'eo', 'es'],
      llm: [],
      llmAnyLanguage: true,
    });
  });

  it('lists nothing as offline when the LLM comes first: it would serve every target', () => {
    expect(registry(llm, apertium).translationChoices('en')).toEqual({ offline: [], llm: [], llmAnyLanguage: true });
  });
});
