// POST /api/v1/transcriptions/{id}/transcribe: without a body, start transcribing the uploaded audio
// (application/start-transcription.ts); with a JSON body of options on a finished transcription, transcribe
// it again in place (application/transcribe-again.ts, decision 0062).
import { transcribeTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { startTranscription } from '../../../application/start-transcription.js';
import { transcribeAgain } from '../../../application/transcribe-again.js';
import { callerOf } from '../../auth.js';
import { ifMatchRevision } from '../../if-match.js';
import { transcriptionBody } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';
import { count, languageOption } from './language-option.js';

/** The requests that came without a body: a start, not a transcription again. */
const withoutBody = new WeakSet<object>();

export const transcribeTranscription: RouteModule = (app, ctx) =>
  app.post(
    operation.path,
    {
      schema: operation.schema,
      preValidation: async (request) => {
        if (request.body !== undefined && request.body !== null) return;
        withoutBody.add(request);
        request.body = {};
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const id = request.params.transcription_id;
      if (withoutBody.has(request)) return transcriptionBody(ctx, request, await startTranscription(ctx, caller, id));
      const body = request.body;
      const asksSpeakers = [body.num_speakers, body.min_speakers, body.max_speakers].some((c) => c !== undefined);
      const record = await transcribeAgain(
        ctx,
        caller,
        id,
        {
          ...(body.language !== undefined ? { languages: languageOption(body.language) } : {}),
          ...(body.transcription_model !== undefined ? { model: body.transcription_model } : {}),
          ...(asksSpeakers
            ? {
                speakers: {
                  numSpeakers: count(body.num_speakers),
                  minSpeakers: count(body.min_speakers),
                  maxSpeakers: count(body.max_speakers),
                },
              }
            : {}),
          ...(body.dictionary_id !== undefined ? { dictionaryId: body.dictionary_id } : {}),
        },
        ifMatchRevision(request.headers['if-match']),
      );
      return transcriptionBody(ctx, request, record);
    },
  );
