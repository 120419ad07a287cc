// Summary, emotion and translation share one shape: POST queues the analysis and answers the
// asynchronous acknowledgment; GET reads the latest result with its status.
import type { AppContext } from '../../../app-context.js';
import {
  readAnalysis,
  requestAnalysis,
  type AnalysisKind,
  type AnalysisRecord,
} from '../../../application/analyses.js';
import { callerOf } from '../../auth.js';
import { baseUrl } from '../../representations.js';
import type { ApiApp, RouteModule } from '../../api-app.js';

/** The contract's operations of one analysis, with the schema each passes to Fastify. */
interface AnalysisOperations {
  request: { path: string; schema: object };
  read: { path: string; schema: object };
}

/** A result as read, with the transcript's latest revision beside the one it was computed from. */
export type ReadAnalysis = AnalysisRecord & { currentRevision: number | null };

export function commonResult(record: ReadAnalysis) {
  return {
    transcription_id: record.transcriptionId,
    status: record.status,
    engine: record.engine,
    error: record.error,
    error_code: record.errorCode,
    requested_at: record.createdAt,
    updated_at: record.updatedAt,
    revision: record.revision,
    current_revision: record.currentRevision,
    outdated: record.revision !== null && record.currentRevision !== null && record.revision < record.currentRevision,
  };
}

export interface AnalysisRouteSpec {
  kind: AnalysisKind;
  /** Path segment after the transcription id: summary, emotion, translate. */
  segment: string;
  label: string;
  operations: AnalysisOperations;
  toBody(record: ReadAnalysis): unknown;
}

export function analysisRoutes(spec: AnalysisRouteSpec): RouteModule[] {
  const isTranslation = spec.kind === 'translation';

  const create = (app: ApiApp, ctx: AppContext) =>
    app.post(spec.operations.request.path, { schema: spec.operations.request.schema }, async (request) => {
      const id = (request.params as { transcription_id: string }).transcription_id;
      const asked = (request.body as { language?: string } | undefined)?.language;
      const { transcriptionId, language } = await requestAnalysis(ctx, callerOf(request), id, spec.kind, asked);
      const statusPath = `/api/v1/transcriptions/${encodeURIComponent(id)}/${spec.segment}${isTranslation ? `?language=${language}` : ''}`;
      return {
        transcription_id: transcriptionId,
        is_async: true as const,
        status_url: `${baseUrl(ctx, request)}${statusPath}`,
      };
    });

  const read = (app: ApiApp, ctx: AppContext) =>
    app.get(spec.operations.read.path, { schema: spec.operations.read.schema }, async (request) => {
      const id = (request.params as { transcription_id: string }).transcription_id;
      const language = (request.query as { language?: string }).language;
      return spec.toBody(await readAnalysis(ctx, callerOf(request), id, spec.kind, language, spec));
    });

  return [create, read];
}
