// Summary, emotion and translation share one shape: POST queues the analysis and answers the
// asynchronous acknowledgment; GET reads the latest result with its status.
import ISO6391 from 'iso-639-1';
import { Type, type TSchema } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import type { AnalysisKind, AnalysisRecord } from '../../../db/analysis-repository.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { baseUrl } from '../../representations.js';
import { errorResponses } from '../../schemas.js';
import type { ApiApp, RouteModule } from '../../api-app.js';
import { TranscriptionParams } from '../transcriptions/params.js';

export const AnalysisStatusSchema = Type.Union([Type.Literal('IN_PROGRESS'), Type.Literal('COMPLETED'), Type.Literal('FAILED')]);

const Acknowledgment = Type.Object({
  transcription_id: Type.String(),
  is_async: Type.Literal(true),
  status_url: Type.String({ description: 'GET this URL (with your API key) to read the result and its status.' }),
});

/** Fields every analysis result carries besides its own. */
export const commonResultFields = {
  transcription_id: Type.String(),
  status: AnalysisStatusSchema,
  engine: Type.Union([Type.String(), Type.Null()], { description: 'Extension: the engine that produced it.' }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Extension: why it FAILED.' }),
  requested_at: Type.String({ format: 'date-time', description: 'Extension: when this run was requested.' }),
  updated_at: Type.String({ format: 'date-time' }),
};

export function commonResult(record: AnalysisRecord) {
  return {
    transcription_id: record.transcriptionId,
    status: record.status,
    engine: record.engine,
    error: record.error,
    requested_at: record.createdAt,
    updated_at: record.updatedAt,
  };
}

export interface AnalysisRouteSpec {
  kind: AnalysisKind;
  /** Path segment after the transcription id: summary, emotion, translate. */
  segment: string;
  label: string;
  result: TSchema;
  toBody(record: AnalysisRecord): unknown;
}

async function queue(ctx: AppContext, request: FastifyRequest, kind: AnalysisKind, language: string, statusPath: string) {
  const { transcription_id } = request.params as { transcription_id: string };
  const record = await findTranscription(ctx, callerOf(request), transcription_id);
  const refusal = await ctx.analysisService.request(record, kind, language);
  if (refusal?.kind === 'not-completed') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
  if (refusal?.kind === 'unsupported-language') throw errors.unsupportedLanguage(refusal.message);
  return { transcription_id: record.transcriptionId, is_async: true as const, status_url: `${baseUrl(ctx, request)}${statusPath}` };
}

export function analysisRoutes(spec: AnalysisRouteSpec): RouteModule[] {
  const path = `/api/v1/transcriptions/:transcription_id/${spec.segment}`;
  const tags = ['analyses'];
  const isTranslation = spec.kind === 'translation';

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(
      path,
      {
        schema: {
          summary: `Request the ${spec.label} of a COMPLETED transcription (asynchronous; posting again re-runs it)`,
          tags,
          params: TranscriptionParams,
          ...(isTranslation
            ? { body: Type.Object({ language: Type.String({ description: 'Target language, ISO 639-1' }) }, { additionalProperties: false }) }
            : {}),
          response: { 200: Acknowledgment, ...errorResponses(400, 401, 404, 409) },
        },
      },
      async (request) => {
        const id = (request.params as { transcription_id: string }).transcription_id;
        let language = '';
        if (isTranslation) {
          language = ((request.body as { language?: string } | undefined)?.language ?? '').toLowerCase();
          if (!ISO6391.validate(language)) throw errors.validation(`language must be an ISO 639-1 code such as "es"; got "${language}".`);
        }
        const statusPath = `/api/v1/transcriptions/${encodeURIComponent(id)}/${spec.segment}${isTranslation ? `?language=${language}` : ''}`;
        return queue(ctx, request, spec.kind, language, statusPath);
      },
    );

  const read = (app: ApiApp, ctx: AppContext) =>
    app.get(
      path,
      {
        schema: {
          summary: `Read the ${spec.label} and its status (404 until requested)`,
          ...(isTranslation
            ? { description: 'Without ?language= the most recently requested translation; with it, the translation into that language (extension).' }
            : {}),
          tags,
          params: TranscriptionParams,
          ...(isTranslation ? { querystring: Type.Object({ language: Type.Optional(Type.String()) }) } : {}),
          response: { 200: spec.result, ...errorResponses(401, 404) },
        },
      },
      async (request) => {
        const id = (request.params as { transcription_id: string }).transcription_id;
        const record = await findTranscription(ctx, callerOf(request), id);
        const language = isTranslation ? (request.query as { language?: string }).language?.toLowerCase() : '';
        const analysis = await ctx.analyses.get(record.transcriptionId, spec.kind, language);
        if (!analysis) throw errors.analysisNotFound(record.transcriptionId, spec.label, spec.segment, language);
        return spec.toBody(analysis);
      },
    );

  return [create, read];
}
