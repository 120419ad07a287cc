// What the three analysis jobs share: load the transcript, run the engine, store the result, and record
// a failure once the job will not run again.
import type { AnalysisKind, AnalysisRepository } from '../db/analysis-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import { sourceLanguage } from '../domain/analysis-service.js';
import type { TranscriptionService } from '../domain/transcription-service.js';
import type { AnalysisEngineRegistry } from '../engines/analysis/analysis-registry.js';
import type { AnalysisInput } from '../engines/analysis/analysis-engines.js';
import { LlmError } from '../engines/llm/openai-chat-client.js';
import { PermanentJobError } from './job-errors.js';
import type { JobDefinition, JobPayloads } from './job-queue.js';

export interface AnalysisJobDeps {
  transcriptions: TranscriptionRepository;
  analyses: AnalysisRepository;
  service: TranscriptionService;
  engines: AnalysisEngineRegistry;
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
      if (record.status !== 'COMPLETED' || !record.transcriptKey) throw new PermanentJobError('The transcription is not COMPLETED.');
      const document = await deps.service.readDocument(record);
      const { result, engine } = await run({ document, language: sourceLanguage(record), signal }, payload).catch((error: unknown) => {
        // A refused key or a request the endpoint rejects will not get better by retrying.
        if (error instanceof LlmError && !error.retryable) throw new PermanentJobError(error.message);
        throw error;
      });
      await deps.analyses.complete(payload.transcriptionId, kind, languageOf(payload), result, engine);
    },
    async onFailed(payload, error) {
      await deps.analyses.fail(payload.transcriptionId, kind, languageOf(payload), error.message);
    },
  };
}

export function noEngine(what: string): never {
  throw new PermanentJobError(`No configured ${what} engine can serve this transcript any more; check the server's engine configuration.`);
}
