// Storage whose clients can reach objects directly with presigned URLs (S3), so audio bytes never pass
// through an API node. File storage cannot; the routes then stream through the server as before.
// Decision 0030.
import type { Storage } from './storage.js';

export interface PresigningStorage extends Storage {
  stat(key: string): Promise<{ size: number; contentType: string | null } | null>;
  /** A URL that accepts one PUT of the object's bytes until it expires. */
  presignPut(key: string, ttlSeconds: number): Promise<string>;
  /** A URL that serves the object (Range requests included) until it expires, with these response headers. */
  presignGet(
    key: string,
    ttlSeconds: number,
    response?: { contentType?: string; contentDisposition?: string },
  ): Promise<string>;
  /** Server-side copy; false when `from` does not exist. */
  copy(from: string, to: string): Promise<boolean>;
}

export function canPresign(storage: Storage): storage is PresigningStorage {
  return 'presignPut' in storage && 'copy' in storage;
}
