// Generated audio (synthesized speech, conversions) cached on disk, keyed by a hash of what produced
// it. Shared by the benchmarks and the test fixtures.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

export type CachedFile = (key: unknown[], ext: string, make: (tmpPath: string) => Promise<void>) => Promise<string>;

/**
 * A cache in `dir`: `cached(key, ext, make)` returns the file for `key`, creating it with `make(tmpPath)`
 * on a miss. Writes go to a unique temp name and are renamed into place, so concurrent processes never
 * see half files. Bump `version` to invalidate everything after changing how files are made.
 */
export function fileCache(dir: string, version: number): CachedFile {
  return async (key, ext, make) => {
    const hash = createHash('sha256')
      .update(JSON.stringify([version, ...key]))
      .digest('hex')
      .slice(0, 20);
    const file = path.join(dir, `${hash}.${ext}`);
    if (fs.existsSync(file)) return file;
    await fsp.mkdir(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp.${ext}`;
    try {
      await make(tmp);
      await fsp.rename(tmp, file);
    } finally {
      await fsp.rm(tmp, { force: true });
    }
    return file;
  };
}
