// POST /api/v1/transcriptions/{id}/revisions (extension, decision 0052): edit operations made on a base
// revision, applied on the server as a new revision, rebased or refused with the conflicting segments.
import { createRevision as operation } from '../../../../src-shared/api/revisions.js';
import { editTranscript } from '../../../application/revisions.js';
import { callerOf } from '../../auth.js';
import { ifMatchRevision, revisionTag } from '../../if-match.js';
import type { RouteModule } from '../../api-app.js';
import { writtenRevisionBody } from './revision-body.js';

/** Operations are small; a body this large is not a client of this API. */
const BODY_LIMIT = 2 * 1024 * 1024;

export const createRevisionRoute: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema, bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const written = await editTranscript(ctx, callerOf(request), request.params.transcription_id, {
      baseRevision: request.body.base_revision,
      operations: request.body.operations,
      ifMatch: ifMatchRevision(request.headers['if-match']),
    });
    void reply.header('etag', revisionTag(written.info.revision));
    return writtenRevisionBody(written);
  });
