// The files and folders the user chose, as main knows them (decision 0046). Paths enter main only from
// its own dialogs and from drops (which the preload reads from a File); the renderer is given an opaque
// handle per path and hands it back to queue an upload, import a folder or re-run a transcription. A
// path, or a handle main did not issue, is refused: a compromised renderer cannot make main read a file
// the user did not choose.
//   - A handle is taken once: queueing keeps the path in main's own upload records, so nothing needs it
//     twice, and a handle seen by a page cannot be replayed.
//   - Handles expire after HANDLE_LIFETIME_MS (a choice is used at once), and at most MAX_HANDLES are
//     kept (the oldest go first), so repeated picks cannot grow main's memory.
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileOffer } from '../../src-shared/ipc-contract.js';
import { AppFailure } from '../app-failure.js';

export const HANDLE_LIFETIME_MS = 30 * 60 * 1000;
export const MAX_HANDLES = 2000;

interface Grant {
  path: string;
  kind: FileOffer['kind'];
  expiresAt: number;
}

export class FileHandles {
  private readonly grants = new Map<string, Grant>();

  constructor(
    private readonly now: () => number = Date.now,
    /** A file's audio channels (null: unknown), told with its offer so the form can offer multichannel. */
    private readonly channelsOf: (file: string) => Promise<number | null> = async () => null,
  ) {}

  /**
   * Handles for paths main got from its dialogs or the preload. A path that is neither a file nor a
   * folder (gone, a device) is refused with its name, so the user knows which one.
   */
  async offer(paths: readonly string[]): Promise<FileOffer[]> {
    const offers: FileOffer[] = [];
    for (const given of paths) {
      const resolved = path.resolve(given);
      const name = path.basename(resolved) || resolved;
      const stat = await fsp.stat(resolved).catch(() => null);
      if (!stat || !(stat.isFile() || stat.isDirectory())) {
        throw new AppFailure({
          code: 'not-found',
          reason: 'file-unreadable',
          params: { name },
        });
      }
      const kind = stat.isDirectory() ? 'folder' : 'file';
      const channels = kind === 'file' ? await this.channelsOf(resolved) : null;
      offers.push({
        handle: this.issue(resolved, kind),
        kind,
        name,
        size: kind === 'file' ? stat.size : null,
        ...(channels === null ? {} : { channels }),
      });
    }
    return offers;
  }

  /** The path behind a handle of that kind, which is then forgotten; `field` names it in the refusal. */
  take(handle: string, kind: FileOffer['kind'], field: string): string {
    this.sweep();
    const grant = this.grants.get(handle);
    if (!grant || grant.kind !== kind) {
      throw new AppFailure({
        code: 'not-found',
        field,
        reason: kind === 'folder' ? 'folder-forgotten' : 'file-forgotten',
      });
    }
    this.grants.delete(handle);
    return grant.path;
  }

  /** Every handle is checked before any is taken, so a refused request takes none. */
  takeAll(handles: readonly string[], kind: FileOffer['kind'], field: string): string[] {
    this.sweep();
    const seen = new Set<string>();
    handles.forEach((handle, index) => {
      if (seen.has(handle))
        throw new AppFailure({
          code: 'validation',
          field: `${field}.${index}`,
          reason: 'file-twice',
        });
      seen.add(handle);
      if (this.grants.get(handle)?.kind !== kind) this.take(handle, kind, `${field}.${index}`);
    });
    return handles.map((handle, index) => this.take(handle, kind, `${field}.${index}`));
  }

  private issue(filePath: string, kind: FileOffer['kind']): string {
    this.sweep();
    const handle = `file-${randomBytes(16).toString('hex')}`;
    this.grants.set(handle, { path: filePath, kind, expiresAt: this.now() + HANDLE_LIFETIME_MS });
    // Maps iterate in insertion order: the first keys are the oldest.
    for (const oldest of this.grants.keys()) {
      if (this.grants.size <= MAX_HANDLES) break;
      this.grants.delete(oldest);
    }
    return handle;
  }

  private sweep(): void {
    const now = this.now();
    for (const [handle, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(handle);
  }
}
