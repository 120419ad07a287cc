// One contract for every Storage: the file system (the default) and S3 (s3rver on loopback, a real
// S3-compatible server). Real files, real HTTP, real bytes.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEngineError } from '../../../src-server/domain/engine-error.js';
import { FileSystemStorage } from '../../../src-server/storage/file-system-storage.js';
import { S3Storage, parseStorageUrl } from '../../../src-server/storage/s3-storage.js';
import { ObjectTooLargeError, type Storage } from '../../../src-server/storage/storage.js';
import { S3_CREDENTIALS, startS3, type S3Server } from '../../support/s3.js';
import { tempDir } from '../../support/test-server.js';

let s3: S3Server;
const BUCKET = 'contract';
Object.assign(process.env, S3_CREDENTIALS);

beforeAll(async () => {
  s3 = await startS3({ buckets: [BUCKET] });
});
afterAll(async () => {
  await s3?.stop();
});

const s3Storage = (prefix = 'kikitori/test') =>
  new S3Storage({ bucket: BUCKET, prefix, endpoint: s3.endpoint, tmpDir: path.join(tempDir(), 's3tmp') });

const backends: Array<[string, () => Storage]> = [
  ['FileSystemStorage', () => new FileSystemStorage(tempDir())],
  ['S3Storage', () => s3Storage(`run-${Math.random().toString(36).slice(2)}`)],
];

const bytes = (n: number, seed = 7) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed + (i >> 8)) % 256));
const from = (buffer: Buffer, chunk = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let i = 0; i < buffer.length; i += chunk) yield buffer.subarray(i, i + chunk);
    })(),
  );
async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe.each(backends)('%s', (_name, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });
  afterAll(async () => {
    await storage.close?.();
  });

  it('stores a stream and reads it back whole, with its size', async () => {
    const data = bytes(200_000);
    expect(await storage.put('audio/a/original', from(data))).toEqual({ size: data.length });
    expect(await readAll(await storage.read('audio/a/original'))).toEqual(data);
    expect((await storage.stat('audio/a/original'))?.size).toBe(data.length);
  });

  it('reads an inclusive byte range', async () => {
    const data = bytes(10_000, 13);
    await storage.put('audio/r/original', from(data));
    expect(await readAll(await storage.read('audio/r/original', { start: 100, end: 1099 }))).toEqual(
      data.subarray(100, 1100),
    );
    expect(await readAll(await storage.read('audio/r/original', { start: 9_999, end: 9_999 }))).toEqual(
      data.subarray(9_999),
    );
  });

  it('says null for a missing object', async () => {
    expect(await storage.stat('audio/none/original')).toBeNull();
  });

  it('stores a body of several multipart parts (12 MiB) intact', async () => {
    const data = bytes(12 * 1024 * 1024, 31);
    expect(await storage.put('audio/big/original', from(data, 1024 * 1024))).toEqual({ size: data.length });
    expect((await storage.stat('audio/big/original'))?.size).toBe(data.length);
    expect(
      await readAll(
        await storage.read('audio/big/original', { start: 5 * 1024 * 1024 - 10, end: 5 * 1024 * 1024 + 9 }),
      ),
    ).toEqual(data.subarray(5 * 1024 * 1024 - 10, 5 * 1024 * 1024 + 10));
  });

  it('refuses a stream past maxBytes while streaming, storing nothing and keeping the previous object', async () => {
    const before = bytes(1000, 3);
    await storage.put('audio/limit/original', from(before));
    // Larger than one multipart part, so S3 had parts in flight when the limit struck.
    const source = from(bytes(7 * 1024 * 1024), 256 * 1024);
    await expect(storage.put('audio/limit/original', source, { maxBytes: 6 * 1024 * 1024 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(await readAll(await storage.read('audio/limit/original'))).toEqual(before);
    await expect(storage.put('audio/limit2/original', from(bytes(5000)), { maxBytes: 4999 })).rejects.toBeInstanceOf(
      ObjectTooLargeError,
    );
    expect(await storage.stat('audio/limit2/original')).toBeNull();
    expect(await storage.put('audio/limit3/original', from(bytes(5000)), { maxBytes: 5000 })).toEqual({ size: 5000 });
  });

  it('shows an object only once its stream is complete', async () => {
    const source = new PassThrough();
    const putting = storage.put('audio/atomic/original', source);
    source.write(bytes(6 * 1024 * 1024));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await storage.stat('audio/atomic/original')).toBeNull();
    source.end(bytes(1000));
    expect(await putting).toEqual({ size: 6 * 1024 * 1024 + 1000 });
    expect((await storage.stat('audio/atomic/original'))?.size).toBe(6 * 1024 * 1024 + 1000);
  });

  it('stores nothing when the source fails midway', async () => {
    const source = new PassThrough();
    const putting = storage.put('audio/broken/original', source);
    source.write(bytes(100_000));
    source.destroy(new Error('client went away'));
    await expect(putting).rejects.toThrow();
    expect(await storage.stat('audio/broken/original')).toBeNull();
  });

  it('deletes one object, or every object under a prefix across pages, and nothing beside it', async () => {
    await storage.put('transcripts/x.json', from(Buffer.from('{}')));
    await storage.delete('transcripts/x.json');
    expect(await storage.stat('transcripts/x.json')).toBeNull();
    await storage.delete('transcripts/never-there.json');

    // More than one listing page (1,000 keys) under the prefix.
    const keys = Array.from({ length: 1005 }, (_, i) => `audio/many/${i}`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((k) => storage.put(k, from(Buffer.from(k)))));
    await storage.put('audio/many-other/original', from(Buffer.from('keep')));
    await storage.delete('audio/many');
    for (const k of [keys[0]!, keys[999]!, keys[1004]!]) expect(await storage.stat(k)).toBeNull();
    expect((await storage.stat('audio/many-other/original'))?.size).toBe(4);
  });

  it('lists every object under a prefix, across pages, with when it was written, and nothing beside it', async () => {
    const before = Date.now() - 1000;
    const keys = Array.from({ length: 1003 }, (_, i) => `listed/${i % 2 === 0 ? 'a' : 'b'}/${i}`);
    for (let i = 0; i < keys.length; i += 50)
      await Promise.all(keys.slice(i, i + 50).map((k) => storage.put(k, from(Buffer.from(k)))));
    await storage.put('listed-not/x', from(Buffer.from('x')));
    const listed = await storage.list('listed');
    expect(listed.map((o) => o.key).sort()).toEqual(keys.map((k) => k.slice('listed/'.length)).sort());
    expect(listed.every((o) => o.modifiedAt.getTime() >= before && o.modifiedAt.getTime() <= Date.now() + 1000)).toBe(
      true,
    );
    expect(await storage.list('never-there')).toEqual([]);
    await storage.delete('listed');
    expect(await storage.list('listed')).toEqual([]);
  });

  it('gives a local file with the bytes, for ffmpeg, released afterwards', async () => {
    const data = bytes(50_000, 17);
    await storage.put('audio/local/original', from(data));
    const file = await storage.localPath('audio/local/original');
    expect(await fsp.readFile(file)).toEqual(data);
    if (storage instanceof S3Storage) expect((await fsp.stat(file)).mode & 0o777).toBe(0o600);
    await storage.releaseLocalPath?.(file);
    // The file system's own object stays; S3's private copy is gone.
    expect(fs.existsSync(file)).toBe(!(storage instanceof S3Storage));
    expect((await storage.stat('audio/local/original'))?.size).toBe(data.length);
  });
});

describe('S3Storage', () => {
  it('parses s3://bucket/prefix', () => {
    expect(parseStorageUrl('s3://b')).toEqual({ bucket: 'b', prefix: '' });
    expect(parseStorageUrl('s3://b/')).toEqual({ bucket: 'b', prefix: '' });
    expect(parseStorageUrl('s3://my.bucket/a/b/')).toEqual({ bucket: 'my.bucket', prefix: 'a/b' });
  });

  it('keeps each prefix to itself in a shared bucket', async () => {
    const a = s3Storage('tenant-a');
    const b = s3Storage('tenant-b');
    await a.put('audio/p/original', from(Buffer.from('a')));
    expect(await b.stat('audio/p/original')).toBeNull();
    await b.delete('audio');
    expect((await a.stat('audio/p/original'))?.size).toBe(1);
    expect(fs.existsSync(path.join(s3.directory, BUCKET))).toBe(true);
  });

  it('accepts a PUT to a presigned URL and serves Range requests from a presigned GET', async () => {
    const storage = s3Storage();
    const data = bytes(30_000, 11);
    const put = await fetch(await storage.presignPut('uploads/p1', 600), {
      method: 'PUT',
      body: data,
      headers: { 'content-type': 'audio/wav' },
    });
    expect(put.status).toBe(200);
    expect(await storage.stat('uploads/p1')).toEqual({ size: data.length, contentType: 'audio/wav' });
    const get = await fetch(await storage.presignGet('uploads/p1', 600, { contentType: 'audio/x-wav' }), {
      headers: { range: 'bytes=1000-1999' },
    });
    expect(get.status).toBe(206);
    expect(get.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
    expect(get.headers.get('content-type')).toBe('audio/x-wav');
    expect(Buffer.from(await get.arrayBuffer())).toEqual(data.subarray(1000, 2000));
    expect(await storage.copy('uploads/p1', 'audio/p1/final')).toBe(true);
    expect(await storage.copy('uploads/none', 'audio/none/final')).toBe(false);
    expect((await storage.stat('audio/p1/final'))?.size).toBe(data.length);
  });

  it('turns a missing bucket into an operator error and an unreachable store into a passing one', async () => {
    const missing = new S3Storage({ bucket: 'no-such-bucket', prefix: '', endpoint: s3.endpoint, tmpDir: tempDir() });
    const refused = await missing.put('a', from(Buffer.from('x'))).catch((e: unknown) => e);
    expect(isEngineError(refused, 'unavailable')).toBe(true);
    expect((refused as Error).message).not.toMatch(/S3RVER|no-such-bucket|127\.0\.0\.1/);
    expect((refused as Error).cause).toBeUndefined();
    expect(JSON.stringify(refused)).not.toMatch(/S3RVER|Authorization/i);

    const closedPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const down = new S3Storage({
      bucket: BUCKET,
      prefix: '',
      endpoint: `http://127.0.0.1:${closedPort}`,
      tmpDir: tempDir(),
    });
    const failure = await down.stat('a').catch((e: unknown) => e);
    expect(isEngineError(failure, 'transient')).toBe(true);
  });

  it('turns missing credentials into an operator error, naming no secret', async () => {
    const saved = { ...process.env };
    delete process.env.AWS_ACCESS_KEY_ID;
    delete process.env.AWS_SECRET_ACCESS_KEY;
    process.env.AWS_SHARED_CREDENTIALS_FILE = path.join(tempDir(), 'none');
    process.env.AWS_CONFIG_FILE = path.join(tempDir(), 'none');
    process.env.AWS_EC2_METADATA_DISABLED = 'true';
    try {
      const failure = await s3Storage()
        .presignPut('uploads/x', 60)
        .catch((e: unknown) => e);
      expect(isEngineError(failure, 'unavailable')).toBe(true);
    } finally {
      process.env = saved;
    }
  });
});
