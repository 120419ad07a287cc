import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mediaIdOf, mediaResponse, mediaUrlOf } from '../../../src-main/media-response.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-media-'));
const file = path.join(dir, 'clip.wav');
fs.writeFileSync(file, Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256)));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('mediaResponse', () => {
  it('answers the whole file with its type and byte ranges advertised', async () => {
    const response = await mediaResponse(file, 'GET', null);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe('1000');
    expect((await response.arrayBuffer()).byteLength).toBe(1000);
  });

  it('answers a range with 206 and exactly those bytes', async () => {
    const response = await mediaResponse(file, 'GET', 'bytes=10-19');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const open = await mediaResponse(file, 'GET', 'bytes=990-');
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
  });

  it('answers 416 past the end, 404 for what is not cached, and no body for HEAD', async () => {
    expect((await mediaResponse(file, 'GET', 'bytes=5000-6000')).status).toBe(416);
    expect((await mediaResponse(null, 'GET', null)).status).toBe(404);
    expect((await mediaResponse(path.join(dir, 'missing.wav'), 'GET', null)).status).toBe(404);
    const head = await mediaResponse(file, 'HEAD', null);
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
  });
});

describe('media URLs', () => {
  it('carry the transcription id in the path, and accept it as the host too', () => {
    expect(mediaUrlOf('Abc-123')).toBe('kikitori-media://audio/Abc-123');
    expect(mediaIdOf('kikitori-media://audio/Abc-123')).toBe('Abc-123');
    expect(mediaIdOf('kikitori-media://abc-123')).toBe('abc-123');
    expect(mediaIdOf('kikitori-media://audio/..%2F..%2Fetc')).toBeNull();
    expect(mediaIdOf('kikitori-media://audio/a/b')).toBeNull();
    expect(mediaIdOf('https://example.com/audio/x')).toBeNull();
  });
});
