// Review (spec revision 1.2.0): a human-corrected text of a completed transcription. Since revisions
// (decision 0052) the review is the latest revision's text, one line per segment, and saving one makes a
// new revision; a review saved before revisions is read once into revision 2 (revision-store.ts).
import type { AppContext } from '../app-context.js';
import type { Caller } from '../domain/records.js';
import { diffDocuments, reviewSegments, reviewText, summarizeChange } from '../domain/revisions.js';
import { errors } from './errors.js';
import { findTranscription } from './lookups.js';
import { authorOf, transcriptWithRevisions, written } from './revisions.js';

/** What the review use cases reach: only these parts of the context. */
export type ReviewContext = Pick<AppContext, 'transcriptions' | 'revisions'>;

export interface Review {
  transcriptionId: string;
  reviewedText: string;
  /** The revision this text is. */
  revision: number;
}

/** The client already holds the latest revision (If-None-Match): its text was not read. */
export interface ReviewUnchanged {
  transcriptionId: string;
  revision: number;
  unchanged: true;
}

/**
 * The latest revision's text; while the transcript is as recognized (revision 1), there is none yet. When
 * `held` says the caller has the latest revision already, only its number is read: an app following an
 * open transcript asks every few seconds, and the document is not rebuilt for an answer of "unchanged".
 */
export async function readReview(
  ctx: ReviewContext,
  caller: Caller,
  transcriptionId: string,
  held: (revision: number) => boolean = () => false,
): Promise<Review | ReviewUnchanged> {
  const record = await findTranscription(ctx, caller, transcriptionId);
  if (record.status !== 'COMPLETED' || !record.transcriptKey) throw errors.reviewNotFound(record.transcriptionId);
  const number = await ctx.revisions.latestNumber(record);
  if (number === 1) throw errors.reviewNotFound(record.transcriptionId);
  if (held(number)) return { transcriptionId: record.transcriptionId, revision: number, unchanged: true };
  const latest = await ctx.revisions.latest(record);
  return {
    transcriptionId: record.transcriptionId,
    reviewedText: reviewText(latest.document),
    revision: latest.revision,
  };
}

/** The reviewed text, one line per segment, as a new revision of the caller's completed transcription. */
export async function saveReview(
  ctx: ReviewContext,
  caller: Caller,
  transcriptionId: string,
  reviewedText: string,
  ifMatch?: number,
): Promise<Review> {
  const record = await transcriptWithRevisions(ctx, caller, transcriptionId);
  let text = reviewedText;
  const commit = await ctx.revisions.commit<never>(
    record,
    // A review saved unchanged still records that someone reviewed it.
    { author: authorOf(caller), source: 'review', ifMatch, always: true },
    ({ document }) => {
      const reviewed = { ...document, segments: reviewSegments(document, reviewedText) };
      text = reviewText(reviewed);
      return { document: reviewed, summary: summarizeChange(diffDocuments(document, reviewed), 'Review saved') };
    },
  );
  const { info } = await written(ctx, record, commit, (never) => never);
  return { transcriptionId: record.transcriptionId, reviewedText: text, revision: info.revision };
}
