// POST /api/v1/transcriptions/{id}/replacements/apply (extension, issue 12): a dictionary's forced
// replacements applied to a finished transcript, without transcribing again (application/apply-dictionary.ts).
import { applyReplacements as operation } from '../../../../src-shared/api/transcriptions.js';
import { applyDictionary } from '../../../application/apply-dictionary.js';
import { callerOf } from '../../auth.js';
import { ifMatchRevision } from '../../if-match.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const applyReplacements: RouteModule = (app, ctx) =>
  app.post(
    operation.path,
    {
      schema: operation.schema,
      // The body is optional: no body means "the transcription's own dictionary".
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) =>
      transcriptionBody(
        ctx,
        request,
        await applyDictionary(
          ctx,
          callerOf(request),
          request.params.transcription_id,
          request.body.dictionary_id,
          ifMatchRevision(request.headers['if-match']),
        ),
      ),
  );
