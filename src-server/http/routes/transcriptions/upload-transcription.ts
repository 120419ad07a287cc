import ISO6391 from 'iso-639-1';
import type { Static } from 'typebox';
import { uploadTranscription as operation, type UploadRequest } from '../../../../src-shared/api/transcriptions.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import { detectsLanguage } from '../../../engines/engine-registry.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import { signedUrl } from '../../representations.js';
import type { RouteModule } from '../../api-app.js';

type SpeakerField = 'num_speakers' | 'min_speakers' | 'max_speakers';

/** The schema bounds a string count by its digits only; the value is checked here against the same limit. */
function speakerCount(body: Static<typeof UploadRequest>, field: SpeakerField): number | null {
  const value = body[field];
  if (value === undefined) return null;
  const count = Number(value);
  if (count < LIMITS.speakers.min || count > LIMITS.speakers.max) {
    throw errors.validation(`${field} must be a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}; got ${count}.`, field);
  }
  return count;
}

export const uploadTranscription: RouteModule = (app, ctx) =>
  app.post(operation.path, { schema: operation.schema }, async (request) => {
    const caller = callerOf(request);
    const body = request.body;
    const model = body.transcription_model ?? 'default';
    const requested = body.language === undefined ? [] : Array.isArray(body.language) ? body.language : [body.language];
    const languages = [...new Set(requested.map((l) => l.toLowerCase()))];
    const unknown = languages.filter((l) => !ISO6391.validate(l));
    if (unknown.length > 0) {
      const at = requested.findIndex((l) => !ISO6391.validate(l.toLowerCase()));
      throw errors.validation(
        `language: ${unknown.join(', ')} is not an ISO 639-1 code (for example "en" or "ja").`,
        Array.isArray(body.language) ? `language.${at}` : 'language',
      );
    }
    const [numSpeakers, minSpeakers, maxSpeakers] = [
      speakerCount(body, 'num_speakers'),
      speakerCount(body, 'min_speakers'),
      speakerCount(body, 'max_speakers'),
    ];
    if (minSpeakers !== null && maxSpeakers !== null && minSpeakers > maxSpeakers) {
      throw errors.validation(`min_speakers (${minSpeakers}) must not be greater than max_speakers (${maxSpeakers}).`, 'min_speakers');
    }
    if (numSpeakers !== null && ((minSpeakers !== null && numSpeakers < minSpeakers) || (maxSpeakers !== null && numSpeakers > maxSpeakers))) {
      throw errors.validation(`num_speakers (${numSpeakers}) must lie between min_speakers and max_speakers.`, 'num_speakers');
    }
    // No language: engines that detect it are left to (the record gets the detected one); others use their first.
    const engine = ctx.engines.speechFor(model);
    const effectiveLanguages = languages.length > 0 ? languages : detectsLanguage(engine) ? [] : [engine.capabilities.languages[0] ?? 'en'];
    const unsupported = ctx.engines.unsupportedReason({
      model,
      languages: effectiveLanguages,
      wantsSpeakers: numSpeakers !== null || minSpeakers !== null || maxSpeakers !== null,
    });
    if (unsupported?.code === 'language') throw errors.unsupportedLanguage(unsupported.message, 'language');
    if (unsupported) {
      const speakerField = (['num_speakers', 'min_speakers', 'max_speakers'] as const).find((f) => body[f] !== undefined);
      throw errors.unsupportedOption(unsupported.message, speakerField ?? 'transcription_model');
    }
    if (body.dictionary_id) await findDictionary(ctx, caller, body.dictionary_id);

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
      audio_upload_url: signedUrl(ctx, request, 'upload', record.transcriptionId, ctx.config.uploads.urlTtlSeconds),
      transcription_model: record.transcriptionModel,
      audio_upload_expires_at: record.uploadExpiresAt,
      max_upload_bytes: ctx.config.uploads.maxBytes,
    };
  });
