import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { findTranscription } from '../../lookups.js';
import { transcriptionBody } from '../../representations.js';
import { errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { TranscriptionParams } from './params.js';

export const getTranscription: RouteModule = (app, ctx) =>
  app.get(
    '/api/v1/transcriptions/:transcription_id',
    {
      schema: {
        summary: 'Get a transcription and its status',
        tags: ['transcriptions'],
        params: TranscriptionParams,
        response: { 200: Type.Ref('Transcription'), ...errorResponses(401, 404) },
      },
    },
    async (request) => transcriptionBody(ctx, request, await findTranscription(ctx, callerOf(request), request.params.transcription_id)),
  );
