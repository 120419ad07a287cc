import { deleteSpeaker as operation } from '../../../../src-shared/api/speakers.js';
import { deleteVoice } from '../../../application/voices.js';
import { callerOf } from '../../auth.js';
import type { RouteModule } from '../../api-app.js';

export const deleteSpeaker: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    await deleteVoice(ctx, callerOf(request), request.params.speaker_id);
    return reply.status(200).send();
  });
