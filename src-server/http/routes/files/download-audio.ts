// GET of the uploaded audio from a signed audio_path, with HTTP Range so players can seek.
import rangeParser from 'range-parser';
import { downloadAudio as operation } from '../../../../src-shared/api/files.js';
import { errors } from '../../../application/errors.js';
import type { RouteModule } from '../../api-app.js';
import { verifiedTranscription } from './signed-request.js';
import { audioDownloadRedirect } from '../../../application/direct-uploads.js';
import { audioResponseHeaders } from '../../../domain/served-audio.js';

export const downloadAudio: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const record = await verifiedTranscription(ctx, request, 'audio');
    // S3 mode: the store serves the bytes (and the Range) itself; this node only signs the way there.
    const redirect = record.audioKey
      ? await audioDownloadRedirect(ctx, { ...record, audioKey: record.audioKey })
      : null;
    if (redirect) return reply.header('cache-control', 'private, no-store').redirect(redirect, 307);
    const stat = record.audioKey ? await ctx.storage.stat(record.audioKey) : null;
    if (!record.audioKey || !stat) throw errors.transcriptionNotFound(record.transcriptionId);
    const served = audioResponseHeaders(record);
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', served.contentType)
      .header('content-disposition', served.contentDisposition);
    const header = request.headers.range;
    if (header) {
      const ranges = rangeParser(stat.size, header, { combine: true });
      if (ranges === -1) {
        reply.header('content-range', `bytes */${stat.size}`);
        throw errors.rangeNotSatisfiable(stat.size);
      }
      // Multiple ranges would need multipart/byteranges; players ask for one, so serve the first.
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length > 0) {
        const { start, end } = ranges[0]!;
        reply
          .status(206)
          .header('content-range', `bytes ${start}-${end}/${stat.size}`)
          .header('content-length', end - start + 1);
        return reply.send(await ctx.storage.read(record.audioKey, { start, end }));
      }
    }
    reply.header('content-length', stat.size);
    return reply.send(await ctx.storage.read(record.audioKey));
  });
