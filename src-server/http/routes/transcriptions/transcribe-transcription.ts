import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { transcriptionBody } from '../../representations.js';
import { errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { TranscriptionParams } from './params.js';

export const transcribeTranscription: RouteModule = (app, ctx) =>
  app.post(
    '/api/v1/transcriptions/:transcription_id/transcribe',
    {
      schema: {
        summary: 'Start transcribing the uploaded audio (idempotent while running)',
        description:
          'Needs the upload to be complete (409 otherwise). A second call while the transcription is queued or running ' +
          'starts nothing new and returns the current record; a call after it ended (COMPLETED, FAILED, CANCELLED) answers 409.',
        tags: ['transcriptions'],
        params: TranscriptionParams,
        response: { 200: Type.Ref('Transcription'), ...errorResponses(401, 404, 409) },
      },
    },
    async (request) => {
      const record = await findTranscription(ctx, callerOf(request), request.params.transcription_id);
      const outcome = await ctx.service.start(record);
      if (outcome === 'upload-missing') throw errors.uploadNotComplete(record.transcriptionId);
      if (outcome === 'ended') throw errors.transcriptionAlreadyEnded(record.transcriptionId, record.status);
      return transcriptionBody(ctx, request, (await ctx.transcriptions.getById(record.transcriptionId))!);
    },
  );
