// Review operations (spec revision 1.2.0): a human-corrected text for a completed transcription.
import { getReview as getOperation, saveReview as saveOperation } from '../../../../src-shared/api/transcriptions.js';
import { readReview, saveReview as save, type Review } from '../../../application/review.js';
import { callerOf } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

const body = (review: Review) => ({ transcription_id: review.transcriptionId, reviewed_text: review.reviewedText });

export const getReview: RouteModule = (app, ctx) =>
  app.get(getOperation.path, { schema: getOperation.schema }, async (request) =>
    body(await readReview(ctx, callerOf(request), request.params.transcription_id)),
  );

export const saveReview: RouteModule = (app, ctx) =>
  app.post(saveOperation.path, { schema: saveOperation.schema }, async (request) =>
    body(await save(ctx, callerOf(request), request.params.transcription_id, request.body.reviewed_text)),
  );
