// Builds the analysis engines from configuration. The embedded engines work offline: TextRank summary,
// the GoEmotions-trained emotion classifier, apertium translation. When an OpenAI-compatible chat
// endpoint is configured (KIKITORI_LLM_BASE_URL + KIKITORI_LLM_MODEL), the LLM engines come first, so
// translation works into any language; KIKITORI_<SUMMARY|EMOTION|TRANSLATION>_ENGINE=local keeps the
// embedded engine first for that capability.
import type { AnalysisConfig, LlmConfig } from '../config.js';
import type { EmotionEngine, SummaryEngine, TranslationEngine } from '../domain/analysis-engines.js';
import { AnalysisEngineRegistry } from './analysis/analysis-registry.js';
import { LocalEmotionEngine } from './emotion/local-emotion-engine.js';
import { LlmEmotionEngine } from './llm/llm-emotion-engine.js';
import { LlmSummaryEngine } from './llm/llm-summary-engine.js';
import { LlmTranslationEngine } from './llm/llm-translation-engine.js';
import { OpenAiChatClient } from './llm/openai-chat-client.js';
import { ExtractiveSummaryEngine } from './summary/extractive-summary.js';
import { ApertiumTranslationEngine } from './translation/apertium-engine.js';

const ordered = <T>(local: T, llm: T | null, first: 'llm' | 'local'): T[] =>
  llm === null ? [local] : first === 'llm' ? [llm, local] : [local, llm];

/** The chat client of the configured endpoint, or null when none is configured (the loader checked the rest). */
export function llmClientFrom(llm: LlmConfig): OpenAiChatClient | null {
  if (llm.baseUrl === undefined || llm.model === undefined) return null;
  return new OpenAiChatClient({ baseUrl: llm.baseUrl, apiKey: llm.apiKey, model: llm.model });
}

export function createAnalysisEngines(config: AnalysisConfig): AnalysisEngineRegistry {
  const client = llmClientFrom(config.llm);
  return new AnalysisEngineRegistry(
    ordered<SummaryEngine>(new ExtractiveSummaryEngine(), client && new LlmSummaryEngine({ client }), config.summary),
    ordered<EmotionEngine>(new LocalEmotionEngine(), client && new LlmEmotionEngine({ client }), config.emotion),
    ordered<TranslationEngine>(
      new ApertiumTranslationEngine(),
      client && new LlmTranslationEngine({ client }),
      config.translation,
    ),
  );
}
