import type { FastifyRequest } from 'fastify';
import type { SignedUrl } from '../../../application/signed-files.js';

/** The signed URL a /files/* request was sent to: the transcription id in the path, expiry and signature in the query. */
export function signedUrlOf(request: FastifyRequest): SignedUrl {
  const { id } = request.params as { id: string };
  const { expires, signature } = request.query as { expires?: string; signature?: string };
  return { id, expires, signature };
}
