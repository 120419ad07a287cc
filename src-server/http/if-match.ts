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

/**
 * The revisions an `If-None-Match` names (a cache's validators): `*` for any, else the tags of the form
 * "<revision>" (weak or strong; compared weakly, as RFC 9110 asks for If-None-Match). A member of another
 * form names no revision of ours, so it never matches and the full answer is sent: undefined for no header.
 */
export function ifNoneMatchRevisions(header: string | undefined): ReadonlySet<number> | '*' | undefined {
  if (header === undefined) return undefined;
  const members = header.split(',').map((member) => member.trim());
  if (members.includes('*')) return '*';
  const revisions = new Set<number>();
  for (const member of members) {
    const match = /^(?:W\/)?"([1-9][0-9]{0,14})"$/.exec(member);
    if (match) revisions.add(Number(match[1]));
  }
  return revisions;
}

/** Whether a revision is one the client says it holds (If-None-Match). */
export const heldRevision = (held: ReadonlySet<number> | '*' | undefined, revision: number): boolean =>
  held === '*' || (held?.has(revision) ?? false);

/** The ETag of a revision. */
export const revisionTag = (revision: number) => `"${revision}"`;
