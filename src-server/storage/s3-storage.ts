// Storage on any S3-compatible store (AWS S3, MinIO, Ceph, s3rver): audio and transcripts as objects under
// one bucket and key prefix. Credentials and region come from the standard AWS chain (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_REGION, profiles, instance roles), never from our configuration or logs.
// Decision 0030.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  ListObjectsCommand,
  ListObjectsV2Command,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { EngineError } from '../domain/engine-error.js';
import { ObjectTooLargeError, type ByteRange } from './storage.js';
import type { PresigningStorage } from './presigning.js';

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slashes; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible endpoint (http://minio:9000). Given: path-style addressing. Absent: AWS's own. */
  endpoint: string | null;
  /** Where localPath() downloads objects for tools that need a file (ffmpeg). Created, private. */
  tmpDir: string;
  /** Part size of multipart uploads (minimum and default 5 MiB). */
  partBytes?: number;
}

/** SigV4 presigned URLs live at most a week. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
const PART_BYTES = 5 * 1024 * 1024;

/** `s3://bucket/some/prefix` → bucket and prefix (no slashes at either end). */
export function parseStorageUrl(url: string): { bucket: string; prefix: string } {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(url);
  if (!match) throw new Error(`not an s3:// URL: ${url}`);
  return { bucket: match[1]!, prefix: match[2]!.replace(/^\/+|\/+$/g, '') };
}

export class S3Storage implements PresigningStorage {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  private readonly tmpDir: string;
  private readonly partBytes: number;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix;
    this.tmpDir = options.tmpDir;
    this.partBytes = Math.max(PART_BYTES, options.partBytes ?? PART_BYTES);
    this.client = new S3Client({
      ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
      // Checksums only where S3 requires them: S3-compatible stores differ in which flexible checksums
      // they accept, and a presigned PUT must not carry the checksum of an empty body.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    fs.mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  private objectKey(key: string): string {
    if (key.split('/').some((part) => part === '..' || part === '.' || part === ''))
      throw new Error(`invalid storage key: ${key}`);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  async put(key: string, source: Readable, options: { maxBytes?: number } = {}) {
    let size = 0;
    const limit = options.maxBytes ?? Number.POSITIVE_INFINITY;
    let tooLarge = false;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > limit) {
          tooLarge = true;
          done(new ObjectTooLargeError(limit));
        } else done(null, chunk);
      },
    });
    // As with files: a failure on either side destroys the source (a refused upload is not read to its end).
    const feeding = pipeline(source, counter).catch(() => undefined);
    // Parts go up as they fill; the object exists only once CompleteMultipartUpload (or the single
    // PutObject of a small body) succeeds. A failure aborts the multipart upload, dropping its parts.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: counter },
      partSize: this.partBytes,
      queueSize: 2,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      counter.destroy();
      await feeding;
      if (tooLarge) throw new ObjectTooLargeError(limit);
      if (error instanceof ObjectTooLargeError) throw error;
      throw storageError(error, 'storing an object');
    }
    return { size };
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const output = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      if (!(output.Body instanceof Readable)) throw new Error('the S3 client returned no stream body');
      return output.Body;
    } catch (error) {
      throw storageError(error, 'reading an object');
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string | null } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? null };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw storageError(error, 'looking up an object');
    }
  }

  async localPath(key: string): Promise<string> {
    const file = path.join(this.tmpDir, randomUUID());
    try {
      // Audio is the users' data: the copy is readable by the server's user only.
      await pipeline(await this.read(key), fs.createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      await fsp.rm(file, { force: true });
      throw error;
    }
    return file;
  }

  async releaseLocalPath(file: string): Promise<void> {
    if (path.dirname(file) === this.tmpDir) await fsp.rm(file, { force: true });
  }

  async delete(keyOrPrefix: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(keyOrPrefix) }));
      // Everything under `keyOrPrefix/`, a page (at most 1,000 keys) at a time. Each round lists from the
      // start again, since the previous page is gone: no continuation tokens, which some S3-compatible
      // stores get wrong (s3rver cannot make ListObjectsV2's on Node 24's OpenSSL), and the plain
      // ListObjects every store speaks.
      for (;;) {
        const page = await this.client.send(
          new ListObjectsCommand({ Bucket: this.bucket, Prefix: `${this.objectKey(keyOrPrefix)}/`, MaxKeys: 1000 }),
        );
        const objects = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (objects.length === 0) break;
        const result = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: objects, Quiet: true } }),
        );
        const failed = result.Errors ?? [];
        if (failed.length > 0)
          throw new Error(`S3 refused to delete ${failed.length} object(s): ${failed[0]?.Code ?? 'unknown'}`);
      }
    } catch (error) {
      if (isNotFound(error)) return;
      throw storageError(error, 'deleting objects');
    }
  }

  async list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date }>> {
    const under = `${this.objectKey(prefix)}/`;
    const objects: Array<{ key: string; modifiedAt: Date }> = [];
    try {
      // ListObjects (v1), paged by Marker (the last key of a page), for the reason delete() gives.
      let marker: string | undefined;
      do {
        const page = await this.client.send(
          new ListObjectsCommand({ Bucket: this.bucket, Prefix: under, Marker: marker, MaxKeys: 1000 }),
        );
        const contents = (page.Contents ?? []).filter((o) => o.Key);
        for (const o of contents)
          objects.push({ key: o.Key!.slice(under.length), modifiedAt: o.LastModified ?? new Date(0) });
        marker = page.IsTruncated && contents.length > 0 ? contents.at(-1)!.Key : undefined;
      } while (marker);
    } catch (error) {
      if (isNotFound(error)) return [];
      throw storageError(error, 'listing objects');
    }
    return objects;
  }

  async copy(from: string, to: string): Promise<boolean> {
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(to),
          CopySource: encodeURI(`${this.bucket}/${this.objectKey(from)}`),
        }),
      );
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw storageError(error, 'copying an object');
    }
  }

  // Signing happens here, without a request to the store; it fails only without credentials or region.
  presignPut(key: string, ttlSeconds: number): Promise<string> {
    return getSignedUrl(this.client, new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }), {
      expiresIn: Math.min(ttlSeconds, MAX_PRESIGN_SECONDS),
    }).catch((error: unknown) => {
      throw storageError(error, 'signing an upload URL');
    });
  }

  presignGet(
    key: string,
    ttlSeconds: number,
    response: { contentType?: string; contentDisposition?: string } = {},
  ): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ...(response.contentType ? { ResponseContentType: response.contentType } : {}),
        ...(response.contentDisposition ? { ResponseContentDisposition: response.contentDisposition } : {}),
      }),
      { expiresIn: Math.min(ttlSeconds, MAX_PRESIGN_SECONDS) },
    ).catch((error: unknown) => {
      throw storageError(error, 'signing a download URL');
    });
  }

  /** Checks that the bucket answers with these credentials (health checks, a clear error at start). */
  async check(): Promise<void> {
    try {
      await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix ? `${this.prefix}/` : undefined,
          MaxKeys: 1,
        }),
      );
    } catch (error) {
      throw storageError(error, 'listing the bucket');
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    await fsp.rm(this.tmpDir, { recursive: true, force: true });
  }
}

/** Missing object or bucket prefix: S3's 404 (NoSuchKey, NotFound), by status, not by message. */
function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}

/** Network failures on the way to the store: it may answer on the next attempt. */
const NETWORK_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);

/**
 * An S3 failure as the closed engine error kinds (decision 0012): a store that is down, throttling or
 * unreachable is `transient`; refused or missing credentials, a missing region or bucket, or any other
 * client error needs an operator (`unavailable`). The detail names the S3 error code and status, never
 * credentials or URLs. The SDK's exception is not kept as the cause: it holds the signed request, whose
 * Authorization header names the access key, and a logger would serialize it.
 */
export function storageError(error: unknown, doing: string): EngineError {
  if (error instanceof EngineError) return error;
  const message =
    'The server could not reach its file storage. Try again later; if this goes on, tell the server’s administrator.';
  if (error instanceof S3ServiceException) {
    const status = error.$metadata.httpStatusCode ?? 0;
    const transient = error.$fault === 'server' || status >= 500 || status === 429 || error.$retryable !== undefined;
    return new EngineError(transient ? 'transient' : 'unavailable', message, {
      detail: `S3 ${doing}: ${error.name} (HTTP ${status || 'no status'})`,
    });
  }
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const transient = code !== undefined && NETWORK_ERRORS.has(code);
  return new EngineError(transient ? 'transient' : 'unavailable', message, {
    detail: `S3 ${doing}: ${code ?? (error instanceof Error ? error.name : 'unknown error')}`,
  });
}
