// Where audio and transcript documents live. The file system is the self-host default;
// S3Storage (s3-storage.ts) implements the same interface on any S3-compatible store.
import type { Readable } from 'node:stream';

export class ObjectTooLargeError extends Error {
  override readonly name = 'ObjectTooLargeError';
  constructor(readonly limit: number) {
    super(`object exceeds ${limit} bytes`);
  }
}

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

export interface Storage {
  /** Streams `source` into `key`. The object appears only once complete, so a crash never leaves half a file. */
  put(key: string, source: Readable, options?: { maxBytes?: number }): Promise<{ size: number }>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** A local file path with the object's bytes, for tools such as ffmpeg. */
  localPath(key: string): Promise<string>;
  /** Done with a localPath(): a storage that made a temporary copy (S3) removes it. */
  releaseLocalPath?(localPath: string): Promise<void>;
  /** Releases connections and temporary files, when the storage holds any. */
  close?(): Promise<void>;
  /** Deletes the object, or every object under `prefix/`. Missing keys are fine. */
  delete(keyOrPrefix: string): Promise<void>;
  /** Every object under `prefix/` (its key relative to `prefix/`) and when it was last written, for sweeps. */
  list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date }>>;
}
