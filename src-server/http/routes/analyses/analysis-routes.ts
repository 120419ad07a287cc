// Summary, emotion and translation share one shape: POST queues the analysis and answers the
// asynchronous acknowledgment; GET reads the latest result with its status.
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import type { AnalysisKind, AnalysisRecord } from '../../../db/analysis-repository.js';
import { callerOf } from '../../auth.js';
import { errors } from '../../errors.js';
import { findTranscription } from '../../lookups.js';
import { baseUrl } from '../../representations.js';
import type { ApiApp, RouteModule } from '../../api-app.js';
import { isLanguageCode } from '../../../../src-shared/languages.js';

/** The contract's operations of one analysis, with the schema each passes to Fastify. */
interface AnalysisOperations {
  request: { path: string; schema: object };
  read: { path: string; schema: object };
}

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
  operations: AnalysisOperations;
  toBody(record: AnalysisRecord): unknown;
}

async function queue(ctx: AppContext, request: FastifyRequest, kind: AnalysisKind, language: string, statusPath: string) {
  const { transcription_id } = request.params as { transcription_id: string };
  const record = await findTranscription(ctx, callerOf(request), transcription_id);
  const refusal = await ctx.analysisService.request(record, kind, language);
  if (refusal?.kind === 'not-completed') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
  if (refusal?.kind === 'unsupported-language') throw errors.unsupportedLanguage(refusal.message, kind === 'translation' ? 'language' : undefined);
  return { transcription_id: record.transcriptionId, is_async: true as const, status_url: `${baseUrl(ctx, request)}${statusPath}` };
}

export function analysisRoutes(spec: AnalysisRouteSpec): RouteModule[] {
  const isTranslation = spec.kind === 'translation';

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(spec.operations.request.path, { schema: spec.operations.request.schema }, async (request) => {
      const id = (request.params as { transcription_id: string }).transcription_id;
      let language = '';
      if (isTranslation) {
        language = ((request.body as { language?: string } | undefined)?.language ?? '').toLowerCase();
        if (!isLanguageCode(language)) throw errors.validation(`language must be an ISO 639-1 code such as "es"; got "${language}".`, 'language');
      }
      const statusPath = `/api/v1/transcriptions/${encodeURIComponent(id)}/${spec.segment}${isTranslation ? `?language=${language}` : ''}`;
      return queue(ctx, request, spec.kind, language, statusPath);
    });

  const read = (app: ApiApp, ctx: AppContext) =>
    app.get(spec.operations.read.path, { schema: spec.operations.read.schema }, async (request) => {
      const id = (request.params as { transcription_id: string }).transcription_id;
      const record = await findTranscription(ctx, callerOf(request), id);
      const language = isTranslation ? (request.query as { language?: string }).language?.toLowerCase() : '';
      const analysis = await ctx.analyses.get(record.transcriptionId, spec.kind, language);
      if (!analysis) throw errors.analysisNotFound(record.transcriptionId, spec.label, spec.segment, language);
      return spec.toBody(analysis);
    });

  return [create, read];
}
