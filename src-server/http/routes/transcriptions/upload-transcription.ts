import { uploadTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { createUploadTicket } from '../../../application/create-upload-ticket.js';
import { callerOf } from '../../auth.js';
import { count, languageOption } from './language-option.js';
import { audioUploadUrl } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

export const uploadTranscription: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    const body = request.body;
    const model = body.transcription_model ?? 'default';
    const languages = languageOption(body.language);
    const record = await createUploadTicket(ctx, caller, {
      filename: body.filename,
      dictionaryId: body.dictionary_id ?? null,
      languages,
      model,
      speakers: {
        numSpeakers: count(body.num_speakers),
        minSpeakers: count(body.min_speakers),
        maxSpeakers: count(body.max_speakers),
      },
      multichannel: body.multichannel ?? false,
      recognizeSpeakers: body.recognize_speakers ?? true,
      words: body.words ?? [],
    });
    return {
      transcription_id: record.transcriptionId,
      dictionary_id: record.dictionaryId,
      team_id: record.teamId,
      audio_upload_url: await audioUploadUrl(ctx, request, record),
      transcription_model: record.transcriptionModel,
      audio_upload_expires_at: record.uploadExpiresAt,
      max_upload_bytes: ctx.config.uploads.maxBytes,
      language: record.languages,
    };
  });
