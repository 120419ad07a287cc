// The whisper engine's view of the official model catalogue: names, where catalogue models live
// (<data-dir>/models/) and the order in which it prefers installed ones. The catalogue itself, and
// downloading and verifying models, are src-server/models/ (one implementation for the CLI and the
// HTTP API). The file format itself is ggml-file.ts.
import path from 'node:path';
import { findModel, formatModelSize, OFFICIAL_MODELS, rankModels, type ModelEntry } from '../../models/catalogue.js';

export type WhisperModelInfo = ModelEntry;

/** Official ggml conversions (full precision and quantized). Sizes are exact byte counts. */
export const WHISPER_MODELS: readonly WhisperModelInfo[] = OFFICIAL_MODELS;

/** When no model is configured (KIKITORI_WHISPER_MODEL), the first of these present in the models directory is used. */
export const WHISPER_MODEL_PREFERENCE: readonly string[] = rankModels(OFFICIAL_MODELS).map((m) => m.name);

export function whisperModelsDir(dataDir: string): string {
  return path.join(dataDir, 'models');
}

export function findWhisperModel(name: string): WhisperModelInfo | undefined {
  return findModel(WHISPER_MODELS, name);
}

export function unknownModelMessage(name: string): string {
  return `Unknown whisper model "${name}". Known models: ${WHISPER_MODELS.map((m) => m.name).join(', ')}.`;
}

/** How to get a model, for error messages. */
export function howToGetModel(dataDir: string): string {
  return (
    `Download one with \`npx kikitori-server models download base\` (see \`npx kikitori-server models list\`), ` +
    `or place an official ggml file in ${whisperModelsDir(dataDir)}, or point KIKITORI_WHISPER_MODEL at a ggml model file.`
  );
}

export { formatModelSize };
