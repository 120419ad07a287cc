// Create an upload ticket (POST /api/v1/transcriptions/upload): the checks a transcription's options
// must pass before any audio is sent (speaker counts, the engine's languages and speakers, the caller's
// dictionary, the team's quota), the language default recorded, and the ticket made. The route parses
// the body (language codes included) and renders the ticket with its upload URL.
import type { AppContext } from '../app-context.js';
import type { NewWord } from '../db/dictionary-repository.js';
import type { SpeakerCountField, SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { Caller, TranscriptionModel, TranscriptionRecord } from '../domain/records.js';
import { checkReadings } from './dictionaries.js';
import { errors } from './errors.js';
import { SPEAKER_FIELD } from './speaker-counts.js';
import { checkTeamQuota } from './storage-guards.js';
import { checkTranscriptionOptions, type TranscriptionOptions } from './transcription-options.js';

export interface UploadTicketRequest extends TranscriptionOptions {
  filename: string;
  /** Each channel its own speaker (decision 0061). */
  multichannel?: boolean;
  /** False: the team's enrolled voices are not looked for (decision 0065). */
  recognizeSpeakers?: boolean;
  words: NewWord[];
}

export async function createUploadTicket(
  ctx: AppContext,
  caller: Caller,
  request: UploadTicketRequest,
): Promise<TranscriptionRecord> {
  if (request.multichannel) assertMultichannelAlone(request.model, request.speakers);
  checkReadings(request.words, (i) => `words.${i}`);
  const languages = await checkTranscriptionOptions(ctx, caller, request);
  await checkTeamQuota(ctx, caller.teamId);
  return ctx.service.createTicket(caller, {
    filename: request.filename,
    dictionaryId: request.dictionaryId,
    languages,
    model: request.model,
    ...request.speakers,
    multichannel: request.multichannel ?? false,
    recognizeSpeakers: request.recognizeSpeakers ?? true,
    words: request.words,
  });
}

/**
 * Multichannel labels speakers by channel and runs no separation by voice: a speaker count or the enhanced
 * separation would ask for something that does not run, so they are refused rather than ignored.
 */
function assertMultichannelAlone(model: TranscriptionModel, speakers: SpeakerCounts): void {
  const counted = (Object.keys(SPEAKER_FIELD) as SpeakerCountField[]).find((f) => speakers[f] !== null);
  if (counted) {
    throw errors.validation(
      `${SPEAKER_FIELD[counted]} cannot be combined with multichannel: with multichannel each channel is one speaker. Leave out ${SPEAKER_FIELD[counted]}, or multichannel to have voices separated.`,
      SPEAKER_FIELD[counted],
    );
  }
  if (model === 'diarization-high') {
    throw errors.validation(
      'transcription_model "diarization-high" cannot be combined with multichannel: with multichannel each channel is one speaker and no separation by voice runs. Use transcription_model "default".',
      'transcription_model',
    );
  }
}
