import { transcribeTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { startTranscription } from '../../../application/start-transcription.js';
import { callerOf } from '../../auth.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const transcribeTranscription: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) =>
    transcriptionBody(ctx, request, await startTranscription(ctx, callerOf(request), request.params.transcription_id)),
  );
