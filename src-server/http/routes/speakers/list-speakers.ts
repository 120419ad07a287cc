import { listSpeakers as operation } from '../../../../src-shared/api/speakers.js';
import { listVoices } from '../../../application/voices.js';
import { callerOf } from '../../auth.js';
import { speakerBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const listSpeakers: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request) =>
    (await listVoices(ctx, callerOf(request), request.query.page ?? 1)).map(speakerBody),
  );
