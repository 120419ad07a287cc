// Review operations (spec revision 1.2.0): a human-corrected text for a completed transcription.
import { getReview as getOperation, saveReview as saveOperation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import type { RouteModule } from '../../api-app.js';

export const getReview: RouteModule = (app, ctx) =>
  app.get(getOperation.path, { schema: getOperation.schema }, async (request) => {
    const record = await findTranscription(ctx, callerOf(request), request.params.transcription_id);
    const reviewedText = await ctx.reviews.get(record.transcriptionId);
    if (reviewedText === null) throw errors.reviewNotFound(record.transcriptionId);
    return { transcription_id: record.transcriptionId, reviewed_text: reviewedText };
  });

export const saveReview: RouteModule = (app, ctx) =>
  app.post(saveOperation.path, { schema: saveOperation.schema }, async (request) => {
    const record = await findTranscription(ctx, callerOf(request), request.params.transcription_id);
    if (record.status !== 'COMPLETED') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
    await ctx.reviews.save(record.transcriptionId, request.body.reviewed_text);
    return { transcription_id: record.transcriptionId, reviewed_text: request.body.reviewed_text };
  });
