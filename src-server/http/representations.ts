// Records -> wire bodies (snake_case, as the spec names them).
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.js';
import type { DictionaryView } from '../application/dictionaries.js';
import type { SampleInput, VoiceView } from '../application/voices.js';
import { presignedUploadUrl } from '../application/direct-uploads.js';
import type { ReplacementRuleRecord, DictionaryRecord, TranscriptionRecord, WordRecord } from '../domain/records.js';
import type { SignedPurpose } from '../signing/url-signer.js';
import type { TranscriptionBody } from '../../src-shared/api/transcriptions.js';

export function baseUrl(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.server.publicUrl ?? `${request.protocol}://${request.host}`;
}

export function signedUrl(
  ctx: AppContext,
  request: FastifyRequest,
  purpose: SignedPurpose,
  id: string,
  ttlSeconds: number,
): string {
  return baseUrl(ctx, request) + ctx.signer.sign(purpose, id, ttlSeconds).path;
}

/** The ticket's audio_upload_url: a presigned PUT to the store in S3 mode, the server's signed URL otherwise. */
export async function audioUploadUrl(
  ctx: AppContext,
  request: FastifyRequest,
  record: TranscriptionRecord,
): Promise<string> {
  return (
    (await presignedUploadUrl(ctx, record)) ??
    signedUrl(ctx, request, 'upload', record.transcriptionId, ctx.config.uploads.urlTtlSeconds)
  );
}

export function transcriptionBody(ctx: AppContext, request: FastifyRequest, t: TranscriptionRecord): TranscriptionBody {
  const ttl = ctx.config.downloads.urlTtlSeconds;
  return {
    transcription_id: t.transcriptionId,
    dictionary_id: t.dictionaryId,
    team_id: t.teamId,
    name: t.name,
    user: { user_id: t.userId, name: t.userName },
    transcription_path: t.transcriptKey ? signedUrl(ctx, request, 'transcript', t.transcriptionId, ttl) : null,
    audio_path: t.uploadStatus === 'COMPLETED' ? signedUrl(ctx, request, 'audio', t.transcriptionId, ttl) : null,
    // Once the engine has run, the model field says what actually ran; the requested tier stays in requested_model.
    transcription_model: t.engine ?? t.transcriptionModel,
    requested_model: t.transcriptionModel,
    status: t.status,
    speaking_duration: t.speakingDuration,
    created_at: t.createdAt,
    updated_at: t.updatedAt,
    language: t.languages,
    upload_status: t.uploadStatus,
    upload_expires_at: t.uploadExpiresAt,
    progress: t.progress,
    processing_started_at: t.processingStartedAt,
    // Started but not picked up by a worker yet: said, not stored (no write races the worker's first one).
    stage: t.stage ?? (t.status === 'CONVERTING' && t.processingStartedAt === null ? 'queued' : null),
    duration: t.duration,
    failure_reason: t.failureReason,
    failure_code: t.failureCode,
    engine: t.engine,
    num_speakers: t.numSpeakers,
    min_speakers: t.minSpeakers,
    max_speakers: t.maxSpeakers,
    multichannel: t.multichannel,
    recognize_speakers: t.recognizeSpeakers,
    warnings: t.warnings,
  };
}

export const wordBody = (w: WordRecord) => ({
  word_id: w.wordId,
  dictionary_id: w.dictionaryId,
  word: w.word,
  reading: w.reading,
  created_at: w.createdAt,
  updated_at: w.updatedAt,
});

export const replacementRuleBody = (b: ReplacementRuleRecord) => ({
  blacklist_word_id: b.replacementRuleId,
  dictionary_id: b.dictionaryId,
  pattern: b.pattern,
  replacement: b.replacement,
  created_at: b.createdAt,
  updated_at: b.updatedAt,
});

export const dictionaryListItemBody = (d: DictionaryRecord) => ({
  dictionary_id: d.dictionaryId,
  team_id: d.teamId,
  name: d.name,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});

export function dictionaryBody({ dictionary: d, words, replacementRules }: DictionaryView) {
  return {
    ...dictionaryListItemBody(d),
    words: words.map(wordBody),
    blacklist_words: replacementRules.map(replacementRuleBody),
    is_temporary: d.isTemporary,
  };
}

/** A sample as the request names it. */
export const sampleInput = (s: { transcription_id: string; start: number; end: number }): SampleInput => ({
  transcriptionId: s.transcription_id,
  start: s.start,
  end: s.end,
});

export function speakerBody({ voice, samples }: VoiceView) {
  return {
    speaker_id: voice.voiceId,
    team_id: voice.teamId,
    name: voice.name,
    samples: samples.map((s) => ({
      sample_id: s.sampleId,
      transcription_id: s.transcriptionId,
      start: s.start,
      end: s.end,
      speech_seconds: s.speechSeconds,
      created_at: s.createdAt,
    })),
    speech_seconds: Math.round(samples.reduce((sum, s) => sum + s.speechSeconds, 0) * 100) / 100,
    created_at: voice.createdAt,
    updated_at: voice.updatedAt,
  };
}
