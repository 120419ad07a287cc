import { updateSpeaker as operation } from '../../../../src-shared/api/speakers.js';
import { updateVoice } from '../../../application/voices.js';
import { callerOf } from '../../auth.js';
import { sampleInput, speakerBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const updateSpeaker: RouteModule = (app, ctx) =>
  app.patch(operation.path, { schema: operation.schema }, async (request) =>
    speakerBody(
      await updateVoice(ctx, callerOf(request), request.params.speaker_id, {
        ...(request.body.name === undefined ? {} : { name: request.body.name }),
        addSamples: (request.body.add_samples ?? []).map(sampleInput),
        removeSampleIds: request.body.remove_sample_ids ?? [],
      }),
    ),
  );
