// POST /api/v1/transcriptions/{id}/replacements/apply (extension, issue 12): a dictionary's forced
// replacements applied to a finished transcript, without transcribing again.
import { applyReplacements as operation } from '../../../../src-shared/api/transcriptions.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
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
    async (request) => {
      const caller = callerOf(request);
      const record = await findTranscription(ctx, caller, request.params.transcription_id);
      const outcome = await ctx.service.applyDictionary(caller, record, request.body.dictionary_id);
      switch (outcome.kind) {
        case 'not-completed':
          throw errors.transcriptionNotCompleted(record.transcriptionId, outcome.status);
        case 'no-dictionary':
          throw errors.validation('This transcription has no dictionary. Send the dictionary_id of the dictionary to apply.', 'dictionary_id');
        case 'dictionary-not-found':
          throw errors.dictionaryNotFound(outcome.dictionaryId);
        case 'applied':
          return transcriptionBody(ctx, request, record);
      }
    },
  );
