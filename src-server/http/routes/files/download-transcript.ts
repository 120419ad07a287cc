// GET of the transcript document from a signed transcription_path, as JSON, SRT, WebVTT or text.
import { Type } from 'typebox';
import { CONTENT_TYPES, renderTranscript, TRANSCRIPT_FORMATS } from '../../../domain/transcript-formats.js';
import { errors } from '../../errors.js';
import { errorResponses } from '../../schemas.js';
import type { RouteModule } from '../../api-app.js';
import { SignedParams, SignedQuery, verifiedTranscription } from './signed-request.js';

export const downloadTranscript: RouteModule = (app, ctx) =>
  app.get(
    '/files/transcript/:id',
    {
      schema: {
        summary: 'Download the transcript from a signed transcription_path; ?format=json (default), srt, vtt or txt',
        tags: ['files'],
        security: [],
        params: SignedParams,
        querystring: Type.Object({
          ...SignedQuery.properties,
          format: Type.Optional(Type.Union(TRANSCRIPT_FORMATS.map((f) => Type.Literal(f)), { description: 'one of json, srt, vtt, txt' })),
        }),
        response: errorResponses(400, 403, 404),
      },
    },
    async (request, reply) => {
      const record = await verifiedTranscription(ctx, request, 'transcript');
      if (!record.transcriptKey) throw errors.resultNotReady(record.transcriptionId);
      const format = request.query.format ?? 'json';
      if (format === 'json') return reply.header('content-type', CONTENT_TYPES.json).send(await ctx.storage.read(record.transcriptKey));
      const document = await ctx.service.readDocument(record);
      return reply.header('content-type', CONTENT_TYPES[format]).send(renderTranscript(document, format));
    },
  );
