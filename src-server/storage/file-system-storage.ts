import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { ObjectTooLargeError, type ByteRange, type Storage } from './storage.js';

export class FileSystemStorage implements Storage {
  private readonly tmpDir: string;

  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, '.tmp');
    // Leftovers of uploads cut off by a crash: their transcriptions still await audio, so nothing is lost.
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  private resolve(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, source: Readable, options: { maxBytes?: number } = {}) {
    const target = this.resolve(key);
    const tmp = path.join(this.tmpDir, randomUUID());
    let size = 0;
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) done(new ObjectTooLargeError(limit));
        else done(null, chunk);
      },
    });
    try {
      // Stored audio and transcripts are the users' data: readable by the server's user only.
      await pipeline(source, counter, fs.createWriteStream(tmp, { mode: 0o600 }));
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fsp.rename(tmp, target);
    } catch (error) {
      await fsp.rm(tmp, { force: true });
      throw error;
    }
    return { size };
  }

  async read(key: string, range?: ByteRange) {
    return fs.createReadStream(this.resolve(key), range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string) {
    try {
      const stats = await fsp.stat(this.resolve(key));
      return { size: stats.size };
    } catch {
      return null;
    }
  }

  async localPath(key: string) {
    return this.resolve(key);
  }

  async delete(keyOrPrefix: string) {
    await fsp.rm(this.resolve(keyOrPrefix), { recursive: true, force: true });
  }

  async list(prefix: string) {
    const dir = this.resolve(prefix);
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const files = entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
    const stats = await Promise.all(files.map((file) => fsp.stat(file).catch(() => null)));
    return files.flatMap((file, i) => {
      const stat = stats[i];
      return stat ? [{ key: path.relative(dir, file).split(path.sep).join('/'), modifiedAt: stat.mtime }] : [];
    });
  }
}
