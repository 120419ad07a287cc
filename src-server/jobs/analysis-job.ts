// What the three analysis jobs share: load the transcript, run the engine, store the result, and record
// a failure once the job will not run again.
import type { AnalysisKind, AnalysisRepository } from '../db/analysis-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import { sourceLanguage } from '../domain/analysis-service.js';
import type { TranscriptionService } from '../domain/transcription-service.js';
import type { AnalysisEngines, AnalysisInput } from '../domain/analysis-engines.js';
import { EngineError } from '../domain/engine-error.js';
import type { JobDefinition, JobPayloads } from './job-queue.js';
import { failureCode } from './job-failure.js';

export interface AnalysisJobDeps {
  transcriptions: TranscriptionRepository;
  analyses: AnalysisRepository;
  service: TranscriptionService;
  engines: AnalysisEngines;
}

type AnalysisJobName = 'summarize' | 'analyze-emotion' | 'translate';

export function analysisJob<N extends AnalysisJobName>(
  deps: AnalysisJobDeps,
  kind: AnalysisKind,
  run: (input: AnalysisInput, payload: JobPayloads[N]) => Promise<{ result: unknown; engine: string }>,
): JobDefinition<N> {
  const languageOf = (payload: JobPayloads[N]) => ('language' in payload ? payload.language : '');
  return {
    maxAttempts: 3,
    async handle(payload, { signal }) {
      const record = await deps.transcriptions.getById(payload.transcriptionId);
      if (!record) return; // deleted meanwhile; its analyses went with it
      if (record.status !== 'COMPLETED' || !record.transcriptKey) {
        throw new EngineError('bad-input', 'The transcription is not COMPLETED.', {
          detail: `status ${record.status}`,
        });
      }
      // The latest revision: reviews, edits and dictionary re-applies included (decision 0052).
      const document = await deps.service.readDocument(record);
      // Engines throw EngineErrors; the job runner decides from their kind whether to try again.
      const { result, engine } = await run({ document, language: sourceLanguage(record), signal }, payload);
      await deps.analyses.complete(
        payload.transcriptionId,
        kind,
        languageOf(payload),
        result,
        engine,
        document.revision,
      );
    },
    async onFailed(payload, error) {
      await deps.analyses.fail(payload.transcriptionId, kind, languageOf(payload), error.message, failureCode(error));
    },
  };
}

export function noEngine(what: string): never {
  throw new EngineError(
    'unavailable',
    `No configured ${what} engine can serve this transcript any more; check the server's engine configuration.`,
  );
}
