// Paths built from ids and names that main does not control (a server's transcription ids and file
// names, ids in IPC requests). One check, so an id such as "../../evil" can never make main read,
// write or delete outside the folder meant for it (issue 11).
import path from 'node:path';
import { AppFailure } from '../app-failure.js';

/** Characters no file-name segment may hold on any platform we run on: separators, NUL, controls, ":" (Windows drives and streams). */
const FORBIDDEN = /[/\\:\u0000-\u001f\u007f]/;
const MAX_SEGMENT = 255;

const refuse = (segment: string, detail: string): never => {
  throw new AppFailure({
    code: 'server',
    reason: 'unsafe-file-name',
    detail: `${JSON.stringify(segment.slice(0, 80))}: ${detail}`,
  });
};

/** Whether `file` lies strictly below `root`, once both are resolved. */
export function isInside(root: string, file: string): boolean {
  const relative = path.relative(path.resolve(root), path.resolve(file));
  return relative !== '' && relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative);
}

/**
 * `root` joined with `segments`, each a single file or folder name. Throws an AppFailure for a segment
 * that is empty, "." or "..", holds a separator, NUL, a control character or ":", or is too long, and
 * for a result that would not lie strictly inside `root`.
 */
export function pathInside(root: string, ...segments: string[]): string {
  for (const segment of segments) {
    if (segment.length === 0) refuse(segment, 'it is empty');
    if (segment === '.' || segment === '..') refuse(segment, 'it names a folder above');
    if (FORBIDDEN.test(segment)) refuse(segment, 'it holds a path separator or a control character');
    if (segment.length > MAX_SEGMENT) refuse(segment, 'it is too long');
  }
  const resolved = path.resolve(root, ...segments);
  if (!isInside(root, resolved)) refuse(segments.join('/'), 'it leads outside its folder');
  return resolved;
}

/** A file name for `name` to offer in a save dialog: its last path part, without characters files cannot have. */
export function safeFileName(name: string, fallback: string): string {
  const last = name.split(/[/\\]/).pop() ?? '';
  const cleaned = last
    .replace(/[:*?"<>|\u0000-\u001f\u007f]/g, '_')
    .replace(/^\.+/, '')
    .trim();
  return cleaned.slice(0, 200) || fallback;
}
