// What the three analysis jobs share: load the transcript, run the engine, store the result, and record
// a failure once the job will not run again.
import type { AnalysisKind, AnalysisRepository } from '../db/analysis-repository.js';
import type { ReviewRepository } from '../db/review-repository.js';
import type { TranscriptionRepository } from '../db/transcription-repository.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { decodeReview, withSegments } from '../../src-shared/transcript-editing.js';
import { sourceLanguage } from '../domain/analysis-service.js';
import type { TranscriptionService } from '../domain/transcription-service.js';
import type { AnalysisEngines, AnalysisInput } from '../domain/analysis-engines.js';
import { EngineError } from '../domain/engine-error.js';
import type { JobDefinition, JobPayloads } from './job-queue.js';

export interface AnalysisJobDeps {
  transcriptions: TranscriptionRepository;
  analyses: AnalysisRepository;
  service: TranscriptionService;
  engines: AnalysisEngines;
  /** The reviewed (corrected) text, when one is saved: analyses read the transcript as corrected. */
  reviews?: ReviewRepository;
}

/**
 * No longer called by the jobs, which read the latest revision (decision 0052); kept with its test until
 * the lead removes both. The transcript as its users corrected it: a review in the desktop app's shape (one line per
 * segment, docs/decisions/0025-edited-documents.md) is mapped onto the document; any other review
 * cannot be placed in time, so the recognized document is used.
 */
export async function reviewedDocument(
  document: TranscriptDocument,
  reviews: ReviewRepository | undefined,
  transcriptionId: string,
): Promise<TranscriptDocument> {
  const text = await reviews?.get(transcriptionId);
  const segments = text ? decodeReview(document, text) : null;
  return segments ? withSegments(document, segments) : document;
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
      await deps.analyses.fail(payload.transcriptionId, kind, languageOf(payload), error.message);
    },
  };
}

export function noEngine(what: string): never {
  throw new EngineError(
    'unavailable',
    `No configured ${what} engine can serve this transcript any more; check the server's engine configuration.`,
  );
}
