// PUT of the raw audio to a signed upload URL. The body is streamed to storage, never buffered whole.
import { uploadAudio as operation } from '../../../../src-shared/api/files.js';
import { ObjectTooLargeError } from '../../../storage/storage.js';
import { errors } from '../../../application/errors.js';
import type { RouteModule } from '../../api-app.js';
import { verifiedTranscription } from './signed-request.js';
import { expectedSha256 } from '../../content-digest.js';
import { audioContentType } from '../../../domain/served-audio.js';
import {
  isDiskFull,
  quotaExceededBy,
  uploadAllowance,
  type UploadAllowance,
} from '../../../application/storage-guards.js';

export const uploadAudio: RouteModule = (app, ctx) =>
  app.put(operation.path, { schema: operation.schema }, async (request) => {
    const record = await verifiedTranscription(ctx, request, 'upload');
    const limit = ctx.config.uploads.maxBytes;
    const declared = Number(request.headers['content-length'] ?? NaN);
    // Refused before the body is read: the error handler discards what is still coming (decision 0048).
    if (declared > limit) throw errors.payloadTooLarge(limit);
    const expected = expectedSha256(request.headers);
    if (declared === 0) throw errors.validation('The uploaded file is empty. PUT the audio file as the request body.');
    // Quota and disk are checked only for a PUT that may store something (a used or closed URL answers 409).
    let allowance: UploadAllowance | null = null;
    if (record.uploadStatus !== 'COMPLETED' && record.status === 'IN_PROGRESS') {
      allowance = await uploadAllowance(ctx, record, Number.isFinite(declared) ? declared : null);
    }
    try {
      const outcome = await ctx.service.receiveUpload(
        record,
        request.raw,
        audioContentType(record.name, request.headers['content-type']),
        allowance?.maxBytes ?? limit,
        expected,
      );
      if (outcome.kind === 'reused') throw errors.uploadAlreadyCompleted();
      if (outcome.kind === 'closed') throw errors.uploadClosed(outcome.status);
      if (outcome.kind === 'checksum-mismatch') throw errors.checksumMismatch();
      return {
        transcription_id: record.transcriptionId,
        size: outcome.size,
        upload_status: 'COMPLETED' as const,
        sha256: outcome.sha256,
      };
    } catch (error) {
      if (error instanceof ObjectTooLargeError) {
        if (allowance?.quotaBound)
          throw quotaExceededBy(allowance.quotaBytes!, await ctx.storageUsage.audioBytes(record.teamId), null);
        throw errors.payloadTooLarge(limit);
      }
      if (isDiskFull(error)) {
        throw errors.insufficientStorage(
          "The server ran out of disk space while storing this file. Try again later, or ask the server's administrator to free some space.",
        );
      }
      throw error;
    }
  });
