// GET /api/v1/transcriptions/{id}/revisions/{revision} (extension, decision 0052): that revision's document.
import { getRevision as operation } from '../../../../src-shared/api/revisions.js';
import { readRevision } from '../../../application/revisions.js';
import { callerOf } from '../../auth.js';
import { revisionTag } from '../../if-match.js';
import type { RouteModule } from '../../api-app.js';
import { revisionInfoBody } from './revision-body.js';

export const getRevisionRoute: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const found = await readRevision(ctx, callerOf(request), request.params.transcription_id, request.params.revision);
    void reply.header('etag', revisionTag(found.info.revision));
    return { transcription_id: found.transcriptionId, ...revisionInfoBody(found.info), document: found.document };
  });
