import { uploadTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { isLanguageCode } from '../../../../src-shared/languages.js';
import type { SpeakerCounts } from '../../../../src-shared/speaker-count.js';
import { asksForSpeakers, assertSpeakerCounts } from '../../../application/speaker-counts.js';
import { EngineError } from '../../../domain/engine-error.js';
import { ticketLanguages } from '../../../domain/speech-language.js';
import { engineErrorToAppError } from '../../engine-errors.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import { audioUploadUrl } from '../../direct-uploads.js';
import { checkTeamQuota } from '../../storage-guards.js';
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
    const counts: SpeakerCounts = { numSpeakers: count(body.num_speakers), minSpeakers: count(body.min_speakers), maxSpeakers: count(body.max_speakers) };
    assertSpeakerCounts(counts);
    const { numSpeakers, minSpeakers, maxSpeakers } = counts;
    // No language: engines that detect it are left to (the record gets the detected one); others use their first.
    const effectiveLanguages = ticketLanguages(ctx.engines.speechFor(model), languages);
    const unsupported = ctx.engines.unsupportedReason({
      model,
      languages: effectiveLanguages,
      wantsSpeakers: asksForSpeakers(counts),
    });
    if (unsupported?.code === 'language') {
      throw engineErrorToAppError(new EngineError('unsupported', unsupported.message, { field: 'language', detail: unsupported.detail }));
    }
    if (unsupported) {
      const speakerField = (['num_speakers', 'min_speakers', 'max_speakers'] as const).find((f) => body[f] !== undefined);
      throw errors.unsupportedOption(unsupported.message, speakerField ?? 'transcription_model');
    }
    if (body.dictionary_id) await findDictionary(ctx, caller, body.dictionary_id);
    await checkTeamQuota(ctx, caller.teamId);

    const record = await ctx.service.createTicket(caller, {
      filename: body.filename,
      dictionaryId: body.dictionary_id ?? null,
      languages: effectiveLanguages,
      model,
      numSpeakers,
      minSpeakers,
      maxSpeakers,
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
