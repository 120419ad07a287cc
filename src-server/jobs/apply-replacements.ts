// The apply-replacements job: POST /transcriptions/{id}/replacements/apply waits for it, so matching a
// long transcript against a large dictionary runs in a worker, never on the HTTP event loop (issue 11).
import type { TranscriptionService } from '../domain/transcription-service.js';
import type { JobDefinition } from './job-queue.js';

export function applyReplacementsJob(deps: { service: TranscriptionService }): JobDefinition<'apply-replacements'> {
  return {
    // The caller waits on the line: a failure is answered at once, and the client decides whether to retry.
    maxAttempts: 1,
    async handle(payload, { logger }) {
      const result = await deps.service.applyDictionaryNow(payload);
      logger.info(result, 'forced replacements applied');
      return result;
    },
  };
}
