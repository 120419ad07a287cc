import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../../app-context.js';
import type { SignedPurpose } from '../../../signing/url-signer.js';
import { errors } from '../../../application/errors.js';

/** Checks the URL's signature and expiry, then loads the transcription it names (404 if gone). */
export async function verifiedTranscription(ctx: AppContext, request: FastifyRequest, purpose: SignedPurpose) {
  const { id } = request.params as { id: string };
  const { expires, signature } = request.query as { expires?: string; signature?: string };
  const verdict = ctx.signer.verify(purpose, id, expires, signature);
  if (verdict === 'invalid') throw errors.invalidSignature();
  if (verdict === 'expired') throw errors.expiredSignature();
  const record = await ctx.transcriptions.getById(id);
  if (!record) throw errors.transcriptionNotFound(id);
  return record;
}
