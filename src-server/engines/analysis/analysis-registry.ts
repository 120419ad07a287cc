// The configured analysis engines, in order of preference. The first engine that supports a request
// serves it; when none does, callers get the list of what is supported.
import type {
  AnalysisEngines,
  EmotionEngine,
  SummaryEngine,
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
}
