// Review operations (spec revision 1.2.0): a human-corrected text for a completed transcription.
import { Type } from 'typebox';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { errorResponses, LIMITS } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { TranscriptionParams } from './params.js';

const Review = Type.Object({ transcription_id: Type.String(), reviewed_text: Type.String() });

export const getReview: RouteModule = (app, ctx) =>
  app.get(
    '/api/v1/transcriptions/:transcription_id/review',
    {
      schema: {
        summary: 'Get the reviewed (corrected) text; 404 until one is saved',
        tags: ['review'],
        params: TranscriptionParams,
        response: { 200: Review, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const record = await findTranscription(ctx, callerOf(request), request.params.transcription_id);
      const reviewedText = await ctx.reviews.get(record.transcriptionId);
      if (reviewedText === null) throw errors.reviewNotFound(record.transcriptionId);
      return { transcription_id: record.transcriptionId, reviewed_text: reviewedText };
    },
  );

export const saveReview: RouteModule = (app, ctx) =>
  app.post(
    '/api/v1/transcriptions/:transcription_id/review',
    {
      schema: {
        summary: 'Save the reviewed (corrected) text of a COMPLETED transcription; replaces any earlier one',
        tags: ['review'],
        params: TranscriptionParams,
        body: Type.Object({ reviewed_text: Type.String({ maxLength: LIMITS.reviewedText }) }, { additionalProperties: false }),
        response: { 200: Review, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      const record = await findTranscription(ctx, callerOf(request), request.params.transcription_id);
      if (record.status !== 'COMPLETED') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
      await ctx.reviews.save(record.transcriptionId, request.body.reviewed_text);
      return { transcription_id: record.transcriptionId, reviewed_text: request.body.reviewed_text };
    },
  );
