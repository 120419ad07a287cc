// PUT of the raw audio to a signed upload URL. The body is streamed to storage, never buffered whole.
import { uploadAudio as operation } from '../../../../src-shared/api/files.js';
import { signedTranscription, storeUploadedAudio } from '../../../application/signed-files.js';
import { errors } from '../../../application/errors.js';
import type { RouteModule } from '../../api-app.js';
import { expectedSha256 } from '../../content-digest.js';
import { signedUrlOf } from './signed-request.js';

export const uploadAudio: RouteModule = (app, ctx) =>
  app.put(operation.path, { schema: operation.schema }, async (request) => {
    // The URL's signature is the credential, checked first (as a key is for the API's routes).
    const record = await signedTranscription(ctx, 'upload', signedUrlOf(request));
    const limit = ctx.config.uploads.maxBytes;
    const declared = Number(request.headers['content-length'] ?? NaN);
    // Refused before the body is read: the error handler discards what is still coming (decision 0048).
    if (declared > limit) throw errors.payloadTooLarge(limit);
    const stored = await storeUploadedAudio(ctx, record, {
      body: request.raw,
      declaredBytes: Number.isFinite(declared) ? declared : null,
      contentType: request.headers['content-type'],
      expectedSha256: expectedSha256(request.headers),
    });
    return {
      transcription_id: stored.transcriptionId,
      size: stored.size,
      upload_status: 'COMPLETED' as const,
      sha256: stored.sha256,
    };
  });
