import ISO6391 from 'iso-639-1';
import { uploadTranscription as operation } from '../../../../src-shared/api/transcriptions.js';
import { LIMITS } from '../../../../src-shared/limits.js';
import { checkSpeakerCounts, type SpeakerCountField, type SpeakerCounts } from '../../../../src-shared/speaker-count.js';
import { EngineError } from '../../../domain/engine-error.js';
import { detectsLanguage } from '../../../engines/engine-registry.js';
import { engineErrorToAppError } from '../../engine-errors.js';
import { callerOf } from '../../auth.js';
import { errors, type AppError } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import { audioUploadUrl } from '../../direct-uploads.js';
import { checkTeamQuota } from '../../storage-guards.js';
import type { RouteModule } from '../../api-app.js';

// The spec's wire names for the shared rule's fields.
const WIRE_FIELD: Record<SpeakerCountField, 'num_speakers' | 'min_speakers' | 'max_speakers'> = {
  numSpeakers: 'num_speakers',
  minSpeakers: 'min_speakers',
  maxSpeakers: 'max_speakers',
};

const count = (value: number | string | undefined): number | null => (value === undefined ? null : Number(value));

/** The shared speaker-count rule (src-shared/speaker-count.ts), worded for API clients. */
function speakerCountError(counts: SpeakerCounts): AppError | null {
  const problem = checkSpeakerCounts(counts);
  if (!problem) return null;
  const field = WIRE_FIELD[problem.field];
  switch (problem.reason) {
    case 'out-of-range':
      return errors.validation(`${field} must be a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}; got ${counts[problem.field]}.`, field);
    case 'min-above-max':
      return errors.validation(`min_speakers (${counts.minSpeakers}) must not be greater than max_speakers (${counts.maxSpeakers}).`, field);
    case 'outside-min-max':
      return errors.validation(`num_speakers (${counts.numSpeakers}) must lie between min_speakers and max_speakers.`, field);
  }
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
    const counts: SpeakerCounts = { numSpeakers: count(body.num_speakers), minSpeakers: count(body.min_speakers), maxSpeakers: count(body.max_speakers) };
    const speakerError = speakerCountError(counts);
    if (speakerError) throw speakerError;
    const { numSpeakers, minSpeakers, maxSpeakers } = counts;
    // No language: engines that detect it are left to (the record gets the detected one); others use their first.
    const engine = ctx.engines.speechFor(model);
    const effectiveLanguages = languages.length > 0 ? languages : detectsLanguage(engine) ? [] : [engine.capabilities.languages[0] ?? 'en'];
    const unsupported = ctx.engines.unsupportedReason({
      model,
      languages: effectiveLanguages,
      wantsSpeakers: numSpeakers !== null || minSpeakers !== null || maxSpeakers !== null,
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
