// GET of the transcript document from a signed transcription_path, as JSON, SRT, WebVTT or text: the latest
// revision (decision 0051).
import { downloadTranscript as operation } from '../../../../src-shared/api/files.js';
import { CONTENT_TYPES, renderTranscript } from '../../../domain/transcript-formats.js';
import { errors } from '../../errors.js';
import type { RouteModule } from '../../api-app.js';
import { verifiedTranscription } from './signed-request.js';

export const downloadTranscript: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const record = await verifiedTranscription(ctx, request, 'transcript');
    if (!record.transcriptKey) throw errors.resultNotReady(record.transcriptionId);
    const format = request.query.format ?? 'json';
    // The latest revision, whatever the format (decision 0051); its ETag is the revision.
    const document = await ctx.service.readDocument(record);
    if (document.revision !== undefined) void reply.header('etag', `"${document.revision}"`);
    return reply.header('content-type', CONTENT_TYPES[format]).send(renderTranscript(document, format));
  });
