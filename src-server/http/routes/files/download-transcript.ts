// GET of the transcript document from a signed transcription_path, as JSON, SRT, WebVTT or text: the latest
// revision (decision 0052).
import { downloadTranscript as operation } from '../../../../src-shared/api/files.js';
import { downloadTranscript as transcriptDownload } from '../../../application/signed-files.js';
import type { RouteModule } from '../../api-app.js';
import { signedUrlOf } from './signed-request.js';

export const downloadTranscript: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const transcript = await transcriptDownload(ctx, signedUrlOf(request), request.query.format ?? 'json');
    if (transcript.revision !== undefined) void reply.header('etag', `"${transcript.revision}"`);
    return reply.header('content-type', transcript.contentType).send(transcript.body);
  });
