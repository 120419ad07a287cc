// The three LLM engines, for the setup that builds them (engines/analysis-setup.ts). Each lives in its
// own file, with what they share in llm-batching.ts.
export { LlmEmotionEngine } from './llm-emotion-engine.js';
export { LlmSummaryEngine } from './llm-summary-engine.js';
export { LlmTranslationEngine } from './llm-translation-engine.js';
