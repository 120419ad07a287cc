// The analysis capabilities, as ports the domain owns and engines implement. Each engine says what it
// supports; configuration picks one by name; the analysis service and jobs never know which engine runs.
import type { EmotionEntry, SummaryDetails, TranslatedSegment } from '../../src-shared/analysis.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';

export interface AnalysisInput {
  document: TranscriptDocument;
  /** ISO 639-1 language of the transcript. */
  language: string;
  signal: AbortSignal;
}

export interface SummaryResult {
  /** Overview, then key points, then action items (and decisions), as readable text. */
  summarizedText: string;
  details: SummaryDetails;
}

export interface SummaryEngine {
  readonly name: string;
  /** ISO 639-1 codes it summarises, or 'any'. */
  readonly languages: readonly string[] | 'any';
  summarize(input: AnalysisInput): Promise<SummaryResult>;
}

export interface EmotionEngine {
  readonly name: string;
  readonly languages: readonly string[] | 'any';
  /** One entry per segment plus one (segment_id null) for the whole transcript. */
  analyze(input: AnalysisInput): Promise<EmotionEntry[]>;
}

export interface TranslationResult {
  translatedText: string;
  /** Segment by segment, so the translation stays aligned with the audio. */
  segments: TranslatedSegment[];
}

export interface TranslationEngine {
  readonly name: string;
  /** Runs on this server alone (apertium), rather than through the configured LLM endpoint. */
  readonly offline: boolean;
  /** Target languages it can produce from `source` (ISO 639-1), or 'any'. */
  targets(source: string): readonly string[] | 'any';
  translate(input: AnalysisInput, target: string): Promise<TranslationResult>;
}

/** The configured analysis engines, in order of preference (engines/analysis/analysis-registry.ts). */
export interface AnalysisEngines {
  readonly summary: readonly SummaryEngine[];
  readonly emotion: readonly EmotionEngine[];
  readonly translation: readonly TranslationEngine[];
  /** The first engine that serves the language, or null. */
  summaryFor(language: string): SummaryEngine | null;
  emotionFor(language: string): EmotionEngine | null;
  translationFor(source: string, target: string): TranslationEngine | null;
  /** Every target language some engine can produce from `source`, or 'any'. */
  translationTargets(source: string): string[] | 'any';
  /** What `source` can be translated into, by what the engine that would serve each target needs. */
  translationChoices(source: string): TranslationChoices;
}

export interface TranslationChoices {
  /** Targets served by an engine that runs on this server alone, sorted. */
  offline: string[];
  /** Targets named by an engine that needs the LLM endpoint (and are not served offline), sorted. */
  llm: string[];
  /** An engine through the LLM endpoint takes any other target: one is configured. */
  llmAnyLanguage: boolean;
}
