// Team-scoped lookups shared by routes: another team's id answers 404, exactly like an unknown one.
import type { AppContext } from '../app-context.js';
import type { Caller } from '../domain/records.js';
import { errors } from './errors.js';

export async function findDictionary(ctx: Pick<AppContext, 'dictionaries'>, caller: Caller, dictionaryId: string) {
  const dictionary = await ctx.dictionaries.get(caller.teamId, dictionaryId);
  if (!dictionary) throw errors.dictionaryNotFound(dictionaryId);
  return dictionary;
}

export async function findTranscription(
  ctx: Pick<AppContext, 'transcriptions'>,
  caller: Caller,
  transcriptionId: string,
) {
  const transcription = await ctx.transcriptions.get(caller.teamId, transcriptionId);
  if (!transcription) throw errors.transcriptionNotFound(transcriptionId);
  return transcription;
}
