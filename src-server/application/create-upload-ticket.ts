// Create an upload ticket (POST /api/v1/transcriptions/upload): the checks a transcription's options
// must pass before any audio is sent (speaker counts, the engine's languages and speakers, the caller's
// dictionary, the team's quota), the language default recorded, and the ticket made. The route parses
// the body (language codes included) and renders the ticket with its upload URL.
import type { AppContext } from '../app-context.js';
import type { NewWord } from '../db/dictionary-repository.js';
import type { Caller, TranscriptionRecord } from '../domain/records.js';
import { checkTeamQuota } from './storage-guards.js';
import { checkTranscriptionOptions, type TranscriptionOptions } from './transcription-options.js';

export interface UploadTicketRequest extends TranscriptionOptions {
  filename: string;
  words: NewWord[];
}

export async function createUploadTicket(
  ctx: AppContext,
  caller: Caller,
  request: UploadTicketRequest,
): Promise<TranscriptionRecord> {
  const languages = await checkTranscriptionOptions(ctx, caller, request);
  await checkTeamQuota(ctx, caller.teamId);
  return ctx.service.createTicket(caller, {
    filename: request.filename,
    dictionaryId: request.dictionaryId,
    languages,
    model: request.model,
    ...request.speakers,
    words: request.words,
  });
}
