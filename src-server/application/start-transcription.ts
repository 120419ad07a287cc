// Start a transcription (POST /api/v1/transcriptions/{id}/transcribe): the caller's ticket, its audio
// committed (S3 mode: what the client PUT to the presigned URL; file mode: already done), and its job
// queued. Answers the record as it now is; the route renders it.
import type { AppContext } from '../app-context.js';
import type { Caller, TranscriptionRecord } from '../domain/records.js';
import { commitDirectUpload } from './direct-uploads.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';

export async function startTranscription(
  ctx: AppContext,
  caller: Caller,
  transcriptionId: string,
): Promise<TranscriptionRecord> {
  const record = await commitDirectUpload(ctx, await findTranscription(ctx, caller, transcriptionId));
  const outcome = await ctx.service.start(record);
  if (outcome === 'upload-missing') throw errors.uploadNotComplete(record.transcriptionId);
  if (outcome === 'ended') throw errors.transcriptionAlreadyEnded(record.transcriptionId, record.status);
  return (await ctx.transcriptions.getById(record.transcriptionId))!;
}
