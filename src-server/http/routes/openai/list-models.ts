// GET /v1/models: OpenAI's model list of the ids the audio operations accept (application/models.ts).
import { audioModelIds } from '../../../application/models.js';
import { OpenAiModelList, openAiErrorResponses, type OpenAiModel } from '../../../../src-shared/api/openai.js';
import type { RouteModule } from '../../api-app.js';

const SERVER = 'kikitori-server';

export const listModels: RouteModule = (app, ctx) => {
  // OpenAI's `created` is when a model appeared; here, when this server began serving it.
  const created = Math.floor(Date.now() / 1000);
  app.get(
    '/v1/models',
    {
      schema: {
        summary: 'List the models the audio operations accept (OpenAI-compatible)',
        description:
          '"whisper-1" is this server\'s default engine, "diarization-high" the engine of that transcription model, and each ' +
          'usable speech engine is listed by its name. Send an id as `model` to /v1/audio/transcriptions or /v1/audio/translations.',
        tags: ['openai'],
        response: { 200: OpenAiModelList, ...openAiErrorResponses(401) },
      },
    },
    async () => {
      const data = (await audioModelIds(ctx)).map((id): OpenAiModel => ({
        id,
        object: 'model',
        created,
        owned_by: SERVER,
      }));
      return { object: 'list' as const, data };
    },
  );
};
