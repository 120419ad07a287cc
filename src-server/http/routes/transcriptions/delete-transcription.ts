import { deleteTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import type { RouteModule } from '../../api-app.js';

export const deleteTranscription: RouteModule = (app, ctx) =>
  app.delete(operation.path, { schema: operation.schema }, async (request, reply) => {
    const caller = callerOf(request);
    if (!caller.roles.includes('DELETE')) throw errors.roleRequired('DELETE', 'Deleting a transcription');
    const record = await findTranscription(ctx, caller, request.params.transcription_id);
    await ctx.service.delete(caller, record);
    return reply.status(200).send();
  });
