// GET of the transcript document from a signed transcription_path, as JSON, SRT, WebVTT or text: the latest
// revision (decision 0052), with the app's export options as query parameters (decision 0067).
import { downloadTranscript as operation, type TranscriptQuery } from '../../../../src-shared/api/files.js';
import { downloadTranscript as transcriptDownload } from '../../../application/signed-files.js';
import type { DownloadOptions } from '../../../domain/transcript-formats.js';
import type { RouteModule } from '../../api-app.js';
import { signedUrlOf } from './signed-request.js';

export const downloadTranscript: RouteModule = (app, ctx) =>
  app.get(operation.path, { schema: operation.schema }, async (request, reply) => {
    const transcript = await transcriptDownload(
      ctx,
      signedUrlOf(request),
      request.query.format ?? 'json',
      downloadOptions(request.query),
    );
    if (transcript.revision !== undefined) void reply.header('etag', `"${transcript.revision}"`);
    return reply.header('content-type', transcript.contentType).send(transcript.body);
  });

function downloadOptions(query: TranscriptQuery): DownloadOptions {
  const subtitles = {
    maxCharsPerLine: query.max_chars_per_line,
    maxLinesPerCue: query.max_lines_per_cue,
    maxCueDuration: query.max_cue_duration,
    minGap: query.min_gap,
  };
  return {
    ...(query.speakers !== undefined ? { speakers: query.speakers } : {}),
    ...(query.timestamps !== undefined ? { timestamps: query.timestamps } : {}),
    ...(Object.values(subtitles).some((v) => v !== undefined) ? { subtitles } : {}),
  };
}
