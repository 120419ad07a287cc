// An S3-compatible server on loopback (s3rver, a dev dependency), started and stopped by the tests themselves.
// It accepts the fixed credentials S3RVER/S3RVER and path-style addressing, as a self-hosted store does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  /** http://127.0.0.1:PORT: the value of KIKITORI_S3_ENDPOINT. */
  endpoint: string;
  /** Environment a kikitori-server needs to use `bucket` under `prefix`. */
  env(bucket: string, prefix?: string): Record<string, string>;
  /** Creates a bucket (idempotent). */
  createBucket(bucket: string): Promise<void>;
  /** The directory s3rver keeps objects in (to check what is stored, or damage it). */
  directory: string;
  stop(): Promise<void>;
}

export const S3_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_REGION: 'us-east-1',
} as const;

export async function startS3(options: { buckets?: string[] } = {}): Promise<S3Server> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: (options.buckets ?? []).map((name) => ({ name, configs: [] })),
  });
  const address = await server.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return {
    endpoint,
    directory,
    env(bucket, prefix = '') {
      return {
        ...S3_CREDENTIALS,
        KIKITORI_STORAGE_URL: `s3://${bucket}${prefix ? `/${prefix}` : ''}`,
        KIKITORI_S3_ENDPOINT: endpoint,
      };
    },
    async createBucket(bucket) {
      const response = await fetch(`${endpoint}/${bucket}`, {
        method: 'PUT',
        // s3rver checks signatures only when one is sent; an unsigned request is accepted.
      });
      if (!response.ok && response.status !== 409)
        throw new Error(`creating bucket ${bucket}: ${response.status} ${await response.text()}`);
    },
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
