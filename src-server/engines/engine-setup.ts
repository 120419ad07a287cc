// Builds the engine registry from configuration. Engines are constructed lazily by their own modules,
// so listing them never loads a native library that is missing.
import { ConfiguredEngineRegistry, type EngineRegistry } from './engine-registry.js';
import { PocketsphinxEngine } from './speech/pocketsphinx-engine.js';

export function createEngineRegistry(env: Record<string, string | undefined>): EngineRegistry {
  const pocketsphinx = new PocketsphinxEngine({ modelDir: env.KIKITORI_POCKETSPHINX_MODEL_DIR });
  return new ConfiguredEngineRegistry([pocketsphinx], {
    default: env.KIKITORI_ENGINE_DEFAULT ?? 'pocketsphinx',
    'diarization-high': env.KIKITORI_ENGINE_DIARIZATION_HIGH ?? 'pocketsphinx',
  });
}
