// How much disk space is free where the server writes. A function, so that tests can stand in for
// the file system at this boundary (a full disk is hard to make on demand).
import fsp from 'node:fs/promises';

/** Bytes an unprivileged process may still write on the file system holding `dir`. */
export type FreeSpaceReader = (dir: string) => Promise<number>;

export const statfsFreeSpace: FreeSpaceReader = async (dir) => {
  const stats = await fsp.statfs(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};

/** "1.4 GB", "300 MB": sizes in messages for people. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.ceil(bytes / 1e6)} MB`;
  return `${Math.ceil(bytes / 1e3)} kB`;
}
