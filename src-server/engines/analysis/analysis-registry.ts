// The configured analysis engines, in order of preference. The first engine that supports a request
// serves it; when none does, callers get the list of what is supported.
import type {
  AnalysisEngines,
  EmotionEngine,
  SummaryEngine,
  TranslationChoices,
  TranslationEngine,
} from '../../domain/analysis-engines.js';

const supports = (languages: readonly string[] | 'any', language: string) =>
  languages === 'any' || languages.includes(language);

export class AnalysisEngineRegistry implements AnalysisEngines {
  constructor(
    readonly summary: readonly SummaryEngine[],
    readonly emotion: readonly EmotionEngine[],
    readonly translation: readonly TranslationEngine[],
  ) {}

  summaryFor(language: string): SummaryEngine | null {
    return this.summary.find((e) => supports(e.languages, language)) ?? null;
  }

  emotionFor(language: string): EmotionEngine | null {
    return this.emotion.find((e) => supports(e.languages, language)) ?? null;
  }

  translationFor(source: string, target: string): TranslationEngine | null {
    return this.translation.find((e) => supports(e.targets(source), target)) ?? null;
  }

  /** Every target language some engine can produce from `source`, or 'any'. */
  translationTargets(source: string): string[] | 'any' {
    const all = new Set<string>();
    for (const engine of this.translation) {
      const targets = engine.targets(source);
      if (targets === 'any') return 'any';
      for (const t of targets) all.add(t);
    }
    return [...all].sort();
  }

  /**
   * Each target goes to the engine translationFor() would pick, so a pair apertium knows counts as offline
   * only when apertium comes before the LLM (KIKITORI_TRANSLATION_ENGINE=local or no endpoint).
   */
  translationChoices(source: string): TranslationChoices {
    const choices: TranslationChoices = { offline: [], llm: [], llmAnyLanguage: false };
    const claimed = new Set<string>([source]);
    for (const engine of this.translation) {
      const targets = engine.targets(source);
      if (targets === 'any') {
        // Only the LLM engine takes any language; what it takes is everything not claimed before it.
        if (!engine.offline) choices.llmAnyLanguage = true;
        break;
      }
      for (const target of targets) {
        if (claimed.has(target)) continue;
        claimed.add(target);
        (engine.offline ? choices.offline : choices.llm).push(target);
      }
    }
    choices.offline.sort();
    choices.llm.sort();
    return choices;
  }
}
