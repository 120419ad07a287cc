// What "Import folder…" (or a folder dropped on the window) uploads: the audio and video files in the
// folder and its subfolders, each looked at by its first bytes like a dropped file (media-sniff.ts),
// and an account of what was left out and why, so the user can be told "12 files added, 3 skipped".
//   - Subfolders are followed MAX_FOLDER_DEPTH levels down: deep enough for "Interviews/2024/March",
//     shallow enough that choosing a home folder by mistake does not walk the whole disk.
//   - Hidden entries (".git", ".DS_Store") are not looked at, and symbolic links to folders are not
//     followed (no loops); a link to a file counts as that file.
//   - At most MAX_FOLDER_FILES recordings are queued at once (the upload queue's own bound per request);
//     the rest are reported, not silently dropped.
// Files come out in the order a file manager shows them ("take 2" before "take 10"). What was left out
// is counted, never named: the renderer learns the folder's media files (as uploads) and how many
// others there were, not a listing of the folder (decision 0046).
import type { Dirent } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FolderSkipReason } from '../../src-shared/ipc-contract.js';
import { LIMITS } from '../../src-shared/limits.js';
import { sniffMedia } from './media-sniff.js';

export const MAX_FOLDER_DEPTH = LIMITS.folderDepth;
export const MAX_FOLDER_FILES = LIMITS.uploadsPerRequest;

export interface ScannedFile {
  filePath: string;
  /** Relative to the chosen folder, with "/" between parts. */
  relativePath: string;
  size: number;
}

export interface FolderScan {
  files: ScannedFile[];
  /** How many files were left out, per reason. */
  skipped: Partial<Record<FolderSkipReason, number>>;
  /** Files that are not media, per what they look like ("pdf", "text"). */
  notMedia: Record<string, number>;
  /** Subfolders left unvisited because they lie deeper than MAX_FOLDER_DEPTH. */
  tooDeep: number;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Walks `root` (which must be a readable folder: the caller checks) and sorts what it holds. */
export async function scanFolder(root: string, limits: { depth?: number; files?: number } = {}): Promise<FolderScan> {
  const maxDepth = limits.depth ?? MAX_FOLDER_DEPTH;
  const maxFiles = limits.files ?? MAX_FOLDER_FILES;
  const scan: FolderScan = { files: [], skipped: {}, notMedia: {}, tooDeep: 0 };
  const skip = (reason: FolderSkipReason, detected?: string) => {
    scan.skipped[reason] = (scan.skipped[reason] ?? 0) + 1;
    if (detected) scan.notMedia[detected] = (scan.notMedia[detected] ?? 0) + 1;
  };

  async function visit(dir: string, depth: number): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await fsp.readdir(dir, { withFileTypes: true });
    } catch {
      skip('unreadable');
      return;
    }
    entries.sort((a, b) => collator.compare(a.name, b.name));
    // Files of a folder first, then its subfolders: the order a reader expects.
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) folders.push(full);
      else if (entry.isFile() || entry.isSymbolicLink()) await consider(full, entry.isSymbolicLink());
    }
    for (const folder of folders) {
      if (depth >= maxDepth) scan.tooDeep++;
      else await visit(folder, depth + 1);
    }
  }

  async function consider(filePath: string, link: boolean): Promise<void> {
    const relativePath = relative(filePath);
    let size: number;
    try {
      const stat = await fsp.stat(filePath);
      if (!stat.isFile()) return; // a link to a folder: not followed
      size = stat.size;
    } catch {
      // A broken link is not a file the user meant; an unreadable file is.
      if (!link) skip('unreadable');
      return;
    }
    if (size === 0) return skip('empty');
    let sniff;
    try {
      sniff = await sniffMedia(filePath);
    } catch {
      return skip('unreadable');
    }
    if (!sniff.media) return skip('not-media', sniff.detected);
    if (scan.files.length >= maxFiles) return skip('too-many');
    scan.files.push({ filePath, relativePath, size });
  }

  const relative = (full: string) => path.relative(root, full).split(path.sep).join('/');

  await visit(root, 0);
  return scan;
}
