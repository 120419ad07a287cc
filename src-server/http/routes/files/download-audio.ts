// GET of the uploaded audio from a signed audio_path, with HTTP Range so players can seek.
import rangeParser from 'range-parser';
import { downloadAudio as operation } from '../../../../src-shared/api/files.js';
import { downloadAudio as audioDownload } from '../../../application/signed-files.js';
import { errors } from '../../../application/errors.js';
import type { RouteModule } from '../../api-app.js';
import { signedUrlOf } from './signed-request.js';

export const downloadAudio: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const audio = await audioDownload(ctx, signedUrlOf(request));
    if (audio.kind === 'redirect') return reply.header('cache-control', 'private, no-store').redirect(audio.url, 307);
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', audio.contentType)
      .header('content-disposition', audio.contentDisposition);
    const header = request.headers.range;
    if (header) {
      const ranges = rangeParser(audio.size, header, { combine: true });
      if (ranges === -1) {
        reply.header('content-range', `bytes */${audio.size}`);
        throw errors.rangeNotSatisfiable(audio.size);
      }
      // Multiple ranges would need multipart/byteranges; players ask for one, so serve the first.
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length > 0) {
        const { start, end } = ranges[0]!;
        reply
          .status(206)
          .header('content-range', `bytes ${start}-${end}/${audio.size}`)
          .header('content-length', end - start + 1);
        return reply.send(await audio.read({ start, end }));
      }
    }
    reply.header('content-length', audio.size);
    return reply.send(await audio.read());
  });
