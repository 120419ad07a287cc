// GET of the transcript document from a signed transcription_path, as JSON, SRT, WebVTT or text.
import { downloadTranscript as operation } from '../../../../src-shared/api/files.js';
import { CONTENT_TYPES, renderTranscript } from '../../../domain/transcript-formats.js';
import { errors } from '../../../application/errors.js';
import type { RouteModule } from '../../api-app.js';
import { verifiedTranscription } from './signed-request.js';

export const downloadTranscript: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const record = await verifiedTranscription(ctx, request, 'transcript');
    if (!record.transcriptKey) throw errors.resultNotReady(record.transcriptionId);
    const format = request.query.format ?? 'json';
    if (format === 'json')
      return reply.header('content-type', CONTENT_TYPES.json).send(await ctx.storage.read(record.transcriptKey));
    const document = await ctx.service.readDocument(record);
    return reply.header('content-type', CONTENT_TYPES[format]).send(renderTranscript(document, format));
  });
