// POST /api/v1/transcriptions/{id}/revisions/{revision}/restore (extension, decision 0052): a new revision
// equal to that one.
import { restoreRevision as operation } from '../../../../src-shared/api/revisions.js';
import { restoreRevision } from '../../../application/revisions.js';
import { callerOf } from '../../auth.js';
import { ifMatchRevision, revisionTag } from '../../if-match.js';
import type { RouteModule } from '../../api-app.js';
import { writtenRevisionBody } from './revision-body.js';

export const restoreRevisionRoute: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request, reply) => {
    const written = await restoreRevision(
      ctx,
      callerOf(request),
      request.params.transcription_id,
      request.params.revision,
      ifMatchRevision(request.headers['if-match']),
    );
    void reply.header('etag', revisionTag(written.info.revision));
    return writtenRevisionBody(written);
  });
