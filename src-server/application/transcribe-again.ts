// Transcribe again, in place (POST /api/v1/transcriptions/{id}/transcribe with a body of options, decision
// 0062): a COMPLETED or FAILED transcription recognized again from its stored audio with new options; the
// result becomes the next revision of its transcript, so earlier edits stay in the history. Answers the
// record as it now is (CONVERTING); the route renders it.
import type { SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { AppContext } from '../app-context.js';
import type { Caller, TranscriptionModel, TranscriptionRecord } from '../domain/records.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';
import { checkTranscriptionOptions } from './transcription-options.js';

/** What the body asked for; undefined: keep what the transcription had. */
export interface AgainRequest {
  languages?: string[];
  model?: TranscriptionModel;
  /** Undefined: keep the three counts; given, the three replace them together. */
  speakers?: SpeakerCounts;
  dictionaryId?: string | null;
}

export async function transcribeAgain(
  ctx: AppContext,
  caller: Caller,
  transcriptionId: string,
  request: AgainRequest,
  ifMatch: number | undefined,
): Promise<TranscriptionRecord> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  if (record.status !== 'COMPLETED' && record.status !== 'FAILED') {
    if (record.status === 'CANCELLED') throw errors.transcriptionAlreadyEnded(transcriptionId, record.status);
    throw errors.transcriptionRunning(transcriptionId, record.status);
  }
  if (!record.audioKey || record.uploadStatus !== 'COMPLETED') throw errors.uploadNotComplete(transcriptionId);
  if ((await ctx.storage.stat(record.audioKey)) === null) throw errors.audioGone(transcriptionId);
  const model = request.model ?? record.transcriptionModel;
  const speakers = request.speakers ?? {
    numSpeakers: record.numSpeakers,
    minSpeakers: record.minSpeakers,
    maxSpeakers: record.maxSpeakers,
  };
  const dictionaryId = request.dictionaryId === undefined ? record.dictionaryId : request.dictionaryId;
  // A kept dictionary may have been the upload's temporary one, dropped when it ended: then none.
  const keptDictionary =
    dictionaryId !== null && request.dictionaryId === undefined
      ? (await ctx.dictionaries.get(caller.teamId, dictionaryId))
        ? dictionaryId
        : null
      : dictionaryId;
  const languages = await checkTranscriptionOptions(ctx, caller, {
    model,
    speakers,
    dictionaryId: keptDictionary,
    languages: request.languages ?? record.languages,
  });
  if (ifMatch !== undefined && record.status === 'COMPLETED' && record.transcriptKey) {
    const current = (await ctx.revisions.latest(record)).revision;
    if (current !== ifMatch) throw errors.revisionConflict(current);
  }
  const outcome = await ctx.service.transcribeAgain(
    record,
    { languages, transcriptionModel: model, ...speakers, dictionaryId: keptDictionary },
    { userId: caller.userId, name: caller.userName },
  );
  if (outcome === 'busy') {
    const now = await findTranscription(ctx, caller, transcriptionId);
    throw errors.transcriptionRunning(transcriptionId, now.status);
  }
  return (await ctx.transcriptions.getById(record.transcriptionId))!;
}
