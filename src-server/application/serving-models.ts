// Which engine and model serve each transcription_model now, and what they can do.
import type { ServingModel } from '../../src-shared/api/models.js';
import { TRANSCRIPTION_MODELS, type TranscriptionModel } from '../../src-shared/api/vocabulary.js';
import type { AppContext } from '../app-context.js';
import { operatorMessage } from '../domain/engine-error.js';
import { detectsLanguage } from '../engines/engine-registry.js';
import { engineStatus } from '../engines/engine-setup.js';
import type { SpeechEngine } from '../engines/speech/speech-engine.js';

function modelOf(engine: SpeechEngine): string | null {
  const resolvable = engine as SpeechEngine & { resolveModel?: () => { name: string } };
  if (typeof resolvable.resolveModel !== 'function') return null;
  try {
    return resolvable.resolveModel().name;
  } catch {
    return null;
  }
}

async function serving(ctx: AppContext, model: TranscriptionModel): Promise<ServingModel> {
  const engine = ctx.engines.speechFor(model);
  let status: { usable: boolean; reason: string | null };
  try {
    status = await engineStatus(engine, ctx.config.engines);
  } catch (error) {
    status = { usable: false, reason: operatorMessage(error) };
  }
  let languages: readonly string[] = [];
  try {
    languages = engine.capabilities.languages;
  } catch {
    // an engine that cannot describe itself is reported unusable above
  }
  return {
    engine: engine.name,
    model: modelOf(engine),
    detects_language: detectsLanguage(engine),
    languages: [...languages],
    usable: status.usable,
    reason: status.usable ? null : status.reason,
  };
}

export async function servingModels(ctx: AppContext): Promise<Record<TranscriptionModel, ServingModel>> {
  const entries = await Promise.all(TRANSCRIPTION_MODELS.map(async (m) => [m, await serving(ctx, m)] as const));
  return Object.fromEntries(entries) as Record<TranscriptionModel, ServingModel>;
}
