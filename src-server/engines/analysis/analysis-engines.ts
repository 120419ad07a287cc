// The analysis ports moved to the domain (domain/analysis-engines.ts), which engines implement. Kept
// for the setup module that still imports them from here; new code imports the domain's file.
export type {
  AnalysisInput,
  EmotionEngine,
  SummaryEngine,
  SummaryResult,
  TranslationEngine,
  TranslationResult,
} from '../../domain/analysis-engines.js';
