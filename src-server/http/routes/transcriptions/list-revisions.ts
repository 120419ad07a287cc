// GET /api/v1/transcriptions/{id}/revisions (extension, decision 0052): the history, oldest first.
import { listRevisions as operation } from '../../../../src-shared/api/revisions.js';
import { listRevisions } from '../../../application/revisions.js';
import { callerOf } from '../../auth.js';
import { revisionTag } from '../../if-match.js';
import type { RouteModule } from '../../api-app.js';
import { revisionInfoBody } from './revision-body.js';

export const listRevisionsRoute: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const history = await listRevisions(ctx, callerOf(request), request.params.transcription_id);
    void reply.header('etag', revisionTag(history.latest));
    return {
      transcription_id: history.transcriptionId,
      latest_revision: history.latest,
      revisions: history.revisions.map(revisionInfoBody),
    };
  });
