import { deleteTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { deleteTranscription as remove } from '../../../application/transcriptions.js';
import { callerOf } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

export const deleteTranscription: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    await remove(ctx, callerOf(request), request.params.transcription_id);
    return reply.status(200).send();
  });
