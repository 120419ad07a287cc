// Review operations (spec revision 1.2.0): a human-corrected text for a completed transcription, kept as a
// revision of the transcript (decision 0052); the ETag is that revision, and a GET naming it in
// If-None-Match is answered 304 (decision 0056: how an open transcript follows the server cheaply).
import { getReview as getOperation, saveReview as saveOperation } from '../../../../src-shared/api/transcriptions.js';
import { readReview, saveReview as save, type Review } from '../../../application/review.js';
import { callerOf } from '../../auth.js';
import { heldRevision, ifMatchRevision, ifNoneMatchRevisions, revisionTag } from '../../if-match.js';
import type { RouteModule } from '../../api-app.js';

const body = (review: Review) => ({ transcription_id: review.transcriptionId, reviewed_text: review.reviewedText });

export const getReview: RouteModule = (app, ctx) =>
  app.get(getOperation.path, { schema: getOperation.schema }, async (request, reply) => {
    const held = ifNoneMatchRevisions(request.headers['if-none-match']);
    const review = await readReview(ctx, callerOf(request), request.params.transcription_id, (revision) =>
      heldRevision(held, revision),
    );
    void reply.header('etag', revisionTag(review.revision));
    if ('unchanged' in review) return reply.code(304).send(null);
    return body(review);
  });

export const saveReview: RouteModule = (app, ctx) =>
  app.post(saveOperation.path, { schema: saveOperation.schema }, async (request, reply) => {
    const review = await save(
      ctx,
      callerOf(request),
      request.params.transcription_id,
      request.body.reviewed_text,
      ifMatchRevision(request.headers['if-match']),
    );
    void reply.header('etag', revisionTag(review.revision));
    return body(review);
  });
