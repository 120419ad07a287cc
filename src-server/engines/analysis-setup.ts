// Builds the analysis engines from configuration. The embedded engines work offline: TextRank summary,
// the GoEmotions-trained emotion classifier, apertium translation. When an OpenAI-compatible chat
// endpoint is configured (KIKITORI_LLM_BASE_URL + KIKITORI_LLM_MODEL), the LLM engines come first, so
// translation works into any language; KIKITORI_<SUMMARY|EMOTION|TRANSLATION>_ENGINE=local keeps the
// embedded engine first for that capability.
import { ConfigError } from '../config.js';
import type { EmotionEngine, SummaryEngine, TranslationEngine } from './analysis/analysis-engines.js';
import { AnalysisEngineRegistry } from './analysis/analysis-registry.js';
import { LocalEmotionEngine } from './emotion/local-emotion-engine.js';
import { LlmEmotionEngine, LlmSummaryEngine, LlmTranslationEngine } from './llm/llm-engines.js';
import { OpenAiChatClient } from './llm/openai-chat-client.js';
import { ExtractiveSummaryEngine } from './summary/extractive-summary.js';
import { ApertiumTranslationEngine } from './translation/apertium-engine.js';

type Env = Record<string, string | undefined>;

function preference(env: Env, variable: string, llmConfigured: boolean): 'llm' | 'local' {
  const value = env[variable]?.toLowerCase();
  if (value === undefined || value === '') return llmConfigured ? 'llm' : 'local';
  if (value !== 'llm' && value !== 'local') throw new ConfigError(`${variable} must be "llm" or "local", got "${value}"`);
  if (value === 'llm' && !llmConfigured) throw new ConfigError(`${variable}=llm needs KIKITORI_LLM_BASE_URL and KIKITORI_LLM_MODEL`);
  return value;
}

const ordered = <T>(local: T, llm: T | null, first: 'llm' | 'local'): T[] => (llm === null ? [local] : first === 'llm' ? [llm, local] : [local, llm]);

export function llmClientFrom(env: Env): OpenAiChatClient | null {
  const baseUrl = env.KIKITORI_LLM_BASE_URL;
  if (!baseUrl) return null;
  if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError(`KIKITORI_LLM_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
  const model = env.KIKITORI_LLM_MODEL;
  if (!model) throw new ConfigError('KIKITORI_LLM_MODEL is required when KIKITORI_LLM_BASE_URL is set');
  return new OpenAiChatClient({ baseUrl, apiKey: env.KIKITORI_LLM_API_KEY, model });
}

export function createAnalysisEngines(env: Env): AnalysisEngineRegistry {
  const client = llmClientFrom(env);
  const llm = client !== null;
  return new AnalysisEngineRegistry(
    ordered<SummaryEngine>(new ExtractiveSummaryEngine(), client && new LlmSummaryEngine({ client }), preference(env, 'KIKITORI_SUMMARY_ENGINE', llm)),
    ordered<EmotionEngine>(new LocalEmotionEngine(), client && new LlmEmotionEngine({ client }), preference(env, 'KIKITORI_EMOTION_ENGINE', llm)),
    ordered<TranslationEngine>(new ApertiumTranslationEngine(), client && new LlmTranslationEngine({ client }), preference(env, 'KIKITORI_TRANSLATION_ENGINE', llm)),
  );
}
