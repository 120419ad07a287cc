// GET /v1/models: OpenAI's model list, from the engine registry: "whisper-1" (the default engine, as the
// audio operations read it), "diarization-high", and each speech engine by name, each listed only when
// the engine behind it can run on this server (the same check as `kikitori-server engines`).
import { describeEngines } from '../../../engines/engine-setup.js';
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
      const reports = await describeEngines(ctx.engines, ctx.config.engines);
      const usable = new Set(reports.filter((r) => r.usable).map((r) => r.name));
      const model = (id: string, ownedBy: string): OpenAiModel => ({ id, object: 'model', created, owned_by: ownedBy });
      const data: OpenAiModel[] = [];
      if (usable.has(ctx.engines.speechFor('default').name)) data.push(model('whisper-1', SERVER));
      if (usable.has(ctx.engines.speechFor('diarization-high').name)) data.push(model('diarization-high', SERVER));
      for (const name of ctx.engines.speechEngines.keys()) if (usable.has(name)) data.push(model(name, SERVER));
      return { object: 'list' as const, data };
    },
  );
};
