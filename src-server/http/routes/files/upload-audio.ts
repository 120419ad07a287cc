// PUT of the raw audio to a signed upload URL. The body is streamed to storage, never buffered whole.
import mime from 'mime-types';
import { uploadAudio as operation } from '../../../../src-shared/api/files.js';
import { ObjectTooLargeError } from '../../../storage/storage.js';
import { errors } from '../../errors.js';
import type { RouteModule } from '../../api-app.js';
import { verifiedTranscription } from './signed-request.js';

function audioContentType(filename: string, sent: string | undefined): string {
  const fromName = mime.lookup(filename);
  if (fromName && /^(audio|video)\//.test(fromName)) return fromName;
  const declared = sent?.split(';')[0]?.trim().toLowerCase();
  if (declared && /^(audio|video)\//.test(declared)) return declared;
  return 'application/octet-stream';
}

export const uploadAudio: RouteModule = (app, ctx) =>
  app.put(
    operation.path,
    { schema: operation.schema },
    async (request, reply) => {
      const record = await verifiedTranscription(ctx, request, 'upload');
      const limit = ctx.config.uploads.maxBytes;
      const declared = Number(request.headers['content-length'] ?? NaN);
      if (declared > limit) {
        reply.header('connection', 'close');
        throw errors.payloadTooLarge(limit);
      }
      if (declared === 0) throw errors.validation('The uploaded file is empty. PUT the audio file as the request body.');
      try {
        const outcome = await ctx.service.receiveUpload(record, request.raw, audioContentType(record.name, request.headers['content-type']), limit);
        if (outcome.kind === 'reused') throw errors.uploadAlreadyCompleted();
        if (outcome.kind === 'closed') throw errors.uploadClosed(outcome.status);
        return { transcription_id: record.transcriptionId, size: outcome.size, upload_status: 'COMPLETED' as const };
      } catch (error) {
        if (error instanceof ObjectTooLargeError) {
          reply.header('connection', 'close');
          throw errors.payloadTooLarge(limit);
        }
        throw error;
      }
    },
  );
