import { getTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { findTranscription } from '../../lookups.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const getTranscription: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    transcriptionBody(ctx, request, await findTranscription(ctx, callerOf(request), request.params.transcription_id)),
  );
