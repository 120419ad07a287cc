// Apply replacements (POST /api/v1/transcriptions/{id}/replacements/apply, issue 12): a dictionary's
// forced replacements applied to the latest revision of a finished transcript, edits included, as a new
// revision (decision 0052), without transcribing again.
import type { AppContext } from '../app-context.js';
import type { Caller, TranscriptionRecord } from '../domain/records.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';

/** What applying replacements reaches: only these parts of the context. */
export type ApplyDictionaryContext = Pick<AppContext, 'transcriptions' | 'service'>;

/** `dictionaryId` undefined: the transcription's own dictionary. Answers the record the route renders. */
export async function applyDictionary(
  ctx: ApplyDictionaryContext,
  caller: Caller,
  transcriptionId: string,
  dictionaryId: string | undefined,
  ifMatch?: number,
): Promise<TranscriptionRecord> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  const outcome = await ctx.service.applyDictionary(caller, record, dictionaryId, ifMatch);
  switch (outcome.kind) {
    case 'not-completed':
      throw errors.transcriptionNotCompleted(record.transcriptionId, outcome.status);
    case 'no-dictionary':
      throw errors.validation(
        'This transcription has no dictionary. Send the dictionary_id of the dictionary to apply.',
        'dictionary_id',
      );
    case 'dictionary-not-found':
      throw errors.dictionaryNotFound(outcome.dictionaryId);
    case 'moved-on':
      throw errors.revisionConflict(outcome.current);
    case 'applied':
      return record;
  }
}
