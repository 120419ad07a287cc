// `If-Match: "<revision>"` on the writes to a transcript (decision 0052): the revision the client holds.
import { errors } from '../application/errors.js';

/** The revision named, or undefined for no header (or `*`, any revision). */
export function ifMatchRevision(header: string | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return undefined;
  const match = /^(?:W\/)?"([1-9][0-9]{0,14})"$/.exec(value);
  if (!match)
    throw errors.validation(
      'If-Match must name one revision in quotes, such as "3" (the ETag the transcript was read with).',
      'If-Match',
    );
  return Number(match[1]);
}

/** The ETag of a revision. */
export const revisionTag = (revision: number) => `"${revision}"`;
