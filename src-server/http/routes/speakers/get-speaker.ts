import { getSpeaker as operation } from '../../../../src-shared/api/speakers.js';
import { getVoice } from '../../../application/voices.js';
import { callerOf } from '../../auth.js';
import { speakerBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const getSpeaker: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    speakerBody(await getVoice(ctx, callerOf(request), request.params.speaker_id)),
  );
