import { uploadTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { isLanguageCode } from '../../../../src-shared/languages.js';
import { createUploadTicket } from '../../../application/create-upload-ticket.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../../application/errors.js';
import { audioUploadUrl } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

const count = (value: number | string | undefined): number | null => (value === undefined ? null : Number(value));

export const uploadTranscription: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    const body = request.body;
    const model = body.transcription_model ?? 'default';
    const requested = body.language === undefined ? [] : Array.isArray(body.language) ? body.language : [body.language];
    const languages = [...new Set(requested.map((l) => l.toLowerCase()))];
    const unknown = languages.filter((l) => !isLanguageCode(l));
    if (unknown.length > 0) {
      const at = requested.findIndex((l) => !isLanguageCode(l.toLowerCase()));
      throw errors.validation(
        `language: ${unknown.join(', ')} is not an ISO 639-1 code (for example "en" or "ja").`,
        Array.isArray(body.language) ? `language.${at}` : 'language',
      );
    }
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
