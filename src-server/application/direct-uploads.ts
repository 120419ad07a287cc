// The S3-mode branch of the upload, transcribe and audio routes (decision 0030): the ticket hands out a
// presigned PUT, POST .../transcribe commits what arrived, and the signed audio_path redirects to a
// presigned GET. In file mode every function here answers "not mine" and the routes work as before.
import type { AppContext } from '../app-context.js';
import { DirectUploads } from '../domain/direct-upload.js';
import type { TranscriptionRecord } from '../domain/records.js';
import { canPresign } from '../storage/presigning.js';
import { errors } from './errors.js';
import { quotaExceededBy } from './storage-guards.js';
import { audioContentType, audioResponseHeaders } from '../domain/served-audio.js';

const byContext = new WeakMap<AppContext, DirectUploads | null>();

/** The direct-upload flow when storage can presign (S3), else null. */
function directUploads(ctx: AppContext): DirectUploads | null {
  let uploads = byContext.get(ctx);
  if (uploads === undefined) {
    uploads = canPresign(ctx.storage)
      ? new DirectUploads(
          ctx.storage,
          ctx.transcriptions,
          ctx.storageUsage,
          { maxBytes: ctx.config.uploads.maxBytes, teamQuotaBytes: ctx.config.uploads.teamQuotaBytes },
          (record, sent) => audioContentType(record.name, sent ?? undefined),
        )
      : null;
    byContext.set(ctx, uploads);
  }
  return uploads;
}

/** The ticket's audio_upload_url in S3 mode: a presigned PUT to the store; null in file mode (the server's signed URL). */
export async function presignedUploadUrl(ctx: AppContext, record: TranscriptionRecord): Promise<string | null> {
  const uploads = directUploads(ctx);
  return uploads ? uploads.uploadUrl(record, ctx.config.uploads.urlTtlSeconds) : null;
}

/**
 * Before a transcription starts in S3 mode: the object the client PUT becomes its audio, once, if it is
 * there, within the size limit and the team's quota. In file mode the PUT route already did this.
 */
export async function commitDirectUpload(ctx: AppContext, record: TranscriptionRecord): Promise<TranscriptionRecord> {
  const uploads = directUploads(ctx);
  if (!uploads) return record;
  const outcome = await uploads.commit(record);
  switch (outcome.kind) {
    case 'ready':
      return outcome.record;
    case 'missing':
      throw errors.uploadNotComplete(record.transcriptionId);
    case 'empty':
      throw errors.validation(
        'The uploaded file is empty. PUT the audio file to audio_upload_url again, then transcribe.',
      );
    case 'too-large':
      throw errors.payloadTooLarge(outcome.limit);
    case 'over-quota':
      throw quotaExceededBy(outcome.quota, outcome.used, outcome.size);
  }
}

/** Where audio_path sends the client in S3 mode: a presigned GET (Range works there); null in file mode. */
export async function audioDownloadRedirect(
  ctx: AppContext,
  record: TranscriptionRecord & { audioKey: string },
): Promise<string | null> {
  if (!canPresign(ctx.storage)) return null;
  // The store serves the bytes: it is told the same type and file name this node would send (S3 has no way to add
  // nosniff; the bytes come from the store's origin, not this server's).
  return ctx.storage.presignGet(record.audioKey, ctx.config.downloads.urlTtlSeconds, audioResponseHeaders(record));
}
