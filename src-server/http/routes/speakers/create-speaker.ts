import { createSpeaker as operation } from '../../../../src-shared/api/speakers.js';
import { enrolVoice } from '../../../application/voices.js';
import { callerOf } from '../../auth.js';
import { sampleInput, speakerBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const createSpeaker: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) =>
    speakerBody(
      await enrolVoice(ctx, callerOf(request), {
        name: request.body.name,
        samples: request.body.samples.map(sampleInput),
      }),
    ),
  );
