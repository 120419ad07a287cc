import { transcribeTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { commitDirectUpload } from '../../direct-uploads.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const transcribeTranscription: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    // S3 mode: what the client PUT to the presigned URL becomes the audio here (file mode: already done).
    const record = await commitDirectUpload(ctx, await findTranscription(ctx, callerOf(request), request.params.transcription_id));
    const outcome = await ctx.service.start(record);
    if (outcome === 'upload-missing') throw errors.uploadNotComplete(record.transcriptionId);
    if (outcome === 'ended') throw errors.transcriptionAlreadyEnded(record.transcriptionId, record.status);
    return transcriptionBody(ctx, request, (await ctx.transcriptions.getById(record.transcriptionId))!);
  });
