// OpenAI-compatible operations, under /v1 (not /api/v1), authenticated with the same API keys.
import type { RouteModule } from '../../api-app.js';
import { createTranscription } from './create-transcription.js';
import { createTranslation } from './create-translation.js';
import { listModels } from './list-models.js';

export const openaiRoutes: RouteModule[] = [createTranscription, createTranslation, listModels];
