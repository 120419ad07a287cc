import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { EmptyBody, errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { TranscriptionParams } from './params.js';

export const deleteTranscription: RouteModule = (app, ctx) =>
  app.delete(
    '/api/v1/transcriptions/:transcription_id',
    {
      schema: {
        summary: 'Delete a transcription with its audio, transcript, review and analyses (needs the DELETE role; empty body)',
        tags: ['transcriptions'],
        params: TranscriptionParams,
        response: { 200: EmptyBody, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!caller.roles.includes('DELETE')) throw errors.roleRequired('DELETE', 'Deleting a transcription');
      const record = await findTranscription(ctx, caller, request.params.transcription_id);
      await ctx.service.delete(caller, record);
      return reply.status(200).send();
    },
  );
