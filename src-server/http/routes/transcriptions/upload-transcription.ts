import ISO6391 from 'iso-639-1';
import { Type } from 'typebox';
import { detectsLanguage } from '../../../engines/engine-registry.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findDictionary } from '../../lookups.js';
import { signedUrl } from '../../representations.js';
import { errorResponses, LIMITS, WordCreateRequest } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';

const LanguageCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 639-1 code such as "en"' });
const SpeakerCount = Type.Union([Type.Integer({ minimum: 1, maximum: 99 }), Type.String({ pattern: '^\\s*[1-9][0-9]?\\s*$' })], {
  description: 'a whole number from 1 to 99, as an integer or a string such as "2"',
});

const UploadRequest = Type.Object(
  {
    filename: Type.String({ minLength: 1, maxLength: LIMITS.filename, pattern: '\\S' }),
    dictionary_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    language: Type.Optional(
      Type.Union([LanguageCode, Type.Array(LanguageCode, { minItems: 1, maxItems: 10 })], {
        description: 'an ISO 639-1 code such as "en", or an array of codes',
      }),
    ),
    transcription_model: Type.Optional(
      Type.Union([Type.Literal('default'), Type.Literal('diarization-high')], { description: 'one of "default", "diarization-high"' }),
    ),
    num_speakers: Type.Optional(SpeakerCount),
    min_speakers: Type.Optional(SpeakerCount),
    max_speakers: Type.Optional(SpeakerCount),
    words: Type.Optional(Type.Array(WordCreateRequest, { maxItems: LIMITS.bulkItems })),
  },
  { additionalProperties: false },
);

const UploadTicket = Type.Object({
  transcription_id: Type.String(),
  dictionary_id: Type.Union([Type.String(), Type.Null()]),
  team_id: Type.String(),
  audio_upload_url: Type.String({ description: 'Signed URL: PUT the raw file here, no API key. Single use; expires.' }),
  transcription_model: Type.String(),
  audio_upload_expires_at: Type.String({ format: 'date-time', description: 'Extension: when the upload URL expires.' }),
  max_upload_bytes: Type.Integer({ description: 'Extension: largest accepted file.' }),
});

const count = (value: number | string | undefined): number | null => (value === undefined ? null : Number(value));

export const uploadTranscription: RouteModule = (app, ctx) =>
  app.post(
    '/api/v1/transcriptions/upload',
    {
      schema: {
        summary: 'Create a transcription and get a signed URL to upload its audio to',
        tags: ['transcriptions'],
        body: UploadRequest,
        response: { 200: UploadTicket, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const body = request.body;
      const model = body.transcription_model ?? 'default';
      const requested = body.language === undefined ? [] : Array.isArray(body.language) ? body.language : [body.language];
      const languages = [...new Set(requested.map((l) => l.toLowerCase()))];
      const unknown = languages.filter((l) => !ISO6391.validate(l));
      if (unknown.length > 0) throw errors.validation(`language: ${unknown.join(', ')} is not an ISO 639-1 code (for example "en" or "ja").`);
      const [numSpeakers, minSpeakers, maxSpeakers] = [count(body.num_speakers), count(body.min_speakers), count(body.max_speakers)];
      if (minSpeakers !== null && maxSpeakers !== null && minSpeakers > maxSpeakers) {
        throw errors.validation(`min_speakers (${minSpeakers}) must not be greater than max_speakers (${maxSpeakers}).`);
      }
      if (numSpeakers !== null && ((minSpeakers !== null && numSpeakers < minSpeakers) || (maxSpeakers !== null && numSpeakers > maxSpeakers))) {
        throw errors.validation(`num_speakers (${numSpeakers}) must lie between min_speakers and max_speakers.`);
      }
      // No language: engines that detect it are left to (the record gets the detected one); others use their first.
      const engine = ctx.engines.speechFor(model);
      const effectiveLanguages = languages.length > 0 ? languages : detectsLanguage(engine) ? [] : [engine.capabilities.languages[0] ?? 'en'];
      const unsupported = ctx.engines.unsupportedReason({
        model,
        languages: effectiveLanguages,
        wantsSpeakers: numSpeakers !== null || minSpeakers !== null || maxSpeakers !== null,
      });
      if (unsupported) {
        throw unsupported.code === 'language' ? errors.unsupportedLanguage(unsupported.message) : errors.unsupportedOption(unsupported.message);
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
    },
  );
