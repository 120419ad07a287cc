// Reading and deleting a team's transcriptions: the list page and its version, one record, deletion.
import type { AppContext } from '../app-context.js';
import type { Caller, TranscriptionRecord } from '../domain/records.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';

/** What reading and deleting transcriptions reach: only these parts of the context. */
export type TranscriptionsContext = Pick<AppContext, 'transcriptions' | 'service' | 'config'>;

/** The version the caller's team's list is at; a page read under it stays valid while it holds. */
export function listVersion(ctx: TranscriptionsContext, caller: Caller): Promise<number> {
  return ctx.transcriptions.listVersion(caller.teamId);
}

/** One page of the caller's team's transcriptions, the configured page size long. */
export function listTranscriptions(
  ctx: TranscriptionsContext,
  caller: Caller,
  page: number,
): Promise<TranscriptionRecord[]> {
  return ctx.transcriptions.list(caller.teamId, page, ctx.config.pageSize);
}

/** The caller's team's transcription; another team's answers as unknown. */
export function getTranscription(
  ctx: TranscriptionsContext,
  caller: Caller,
  transcriptionId: string,
): Promise<TranscriptionRecord> {
  return findTranscription(ctx, caller, transcriptionId);
}

/** Deletes the caller's team's transcription, for a caller holding the DELETE role. */
export async function deleteTranscription(
  ctx: TranscriptionsContext,
  caller: Caller,
  transcriptionId: string,
): Promise<void> {
  if (!caller.roles.includes('DELETE')) throw errors.roleRequired('DELETE', 'Deleting a transcription');
  const record = await findTranscription(ctx, caller, transcriptionId);
  await ctx.service.delete(caller, record);
}
