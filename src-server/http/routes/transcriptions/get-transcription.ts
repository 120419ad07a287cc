import { getTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { getTranscription as get } from '../../../application/transcriptions.js';
import { callerOf } from '../../auth.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const getTranscription: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    transcriptionBody(ctx, request, await get(ctx, callerOf(request), request.params.transcription_id)),
  );
