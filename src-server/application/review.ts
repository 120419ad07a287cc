// Review (spec revision 1.2.0): a human-corrected text kept beside a completed transcription.
import type { AppContext } from '../app-context.js';
import type { Caller } from '../domain/records.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';

/** What the review use cases reach: only these parts of the context. */
export type ReviewContext = Pick<AppContext, 'transcriptions' | 'reviews'>;

export interface Review {
  transcriptionId: string;
  reviewedText: string;
}

/** The caller's transcription's reviewed text; none saved yet is an error. */
export async function readReview(ctx: ReviewContext, caller: Caller, transcriptionId: string): Promise<Review> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  const reviewedText = await ctx.reviews.get(record.transcriptionId);
  if (reviewedText === null) throw errors.reviewNotFound(record.transcriptionId);
  return { transcriptionId: record.transcriptionId, reviewedText };
}

/** Keeps the reviewed text of the caller's transcription, which must have completed. */
export async function saveReview(
  ctx: ReviewContext,
  caller: Caller,
  transcriptionId: string,
  reviewedText: string,
): Promise<Review> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  if (record.status !== 'COMPLETED') throw errors.transcriptionNotCompleted(record.transcriptionId, record.status);
  await ctx.reviews.save(record.transcriptionId, reviewedText);
  return { transcriptionId: record.transcriptionId, reviewedText };
}
