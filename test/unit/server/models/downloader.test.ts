// The downloader's resume rules against a real local HTTP server, and the catalogue's ranking.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_MODELS, rankModels } from '../../../../src-server/models/catalogue.js';
import { downloadModelFile, partPath } from '../../../../src-server/models/downloader.js';
import { tempDir } from '../../../support/test-server.js';

const body = randomBytes(256 * 1024);
const sha256 = createHash('sha256').update(body).digest('hex');
let mode: 'ignore-range' | 'refuse-range' = 'ignore-range';
const ranges: (string | undefined)[] = [];
let server: http.Server;
let url: string;
let dir: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    ranges.push(req.headers.range);
    if (mode === 'refuse-range' && req.headers.range) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/model.bin`;
  dir = tempDir();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('downloadModelFile', () => {
  const target = () => ({ name: 'm', url, path: path.join(dir, 'model.bin'), bytes: body.length, sha256 });

  it('restarts from 0 when a Range request is answered 200', async () => {
    fs.writeFileSync(partPath(target().path), Buffer.from('not the start of the model'));
    ranges.length = 0;
    mode = 'ignore-range';
    const progress: number[] = [];
    await downloadModelFile(target(), { onProgress: (received) => progress.push(received) });
    expect(ranges).toEqual(['bytes=26-']);
    expect(progress[0]).toBe(0); // the 26 bytes on disk were not the model's: counted from 0 again
    expect(progress.at(-1)).toBe(body.length);
    expect(fs.readFileSync(target().path).equals(body)).toBe(true);
    expect(fs.existsSync(partPath(target().path))).toBe(false);
    fs.rmSync(target().path);
  });

  it('starts over when the source says the part is past its end (416)', async () => {
    fs.writeFileSync(partPath(target().path), Buffer.alloc(10));
    ranges.length = 0;
    mode = 'refuse-range';
    await downloadModelFile(target());
    expect(ranges).toEqual(['bytes=10-', undefined]);
    expect(fs.readFileSync(target().path).equals(body)).toBe(true);
    fs.rmSync(target().path);
  });

  it('removes the part when cancelled', async () => {
    const controller = new AbortController();
    mode = 'ignore-range';
    const download = downloadModelFile(target(), { signal: controller.signal, onProgress: () => controller.abort() });
    await expect(download).rejects.toMatchObject({ kind: 'cancelled' });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

describe('rankModels', () => {
  it('prefers the most accurate model, then the faster, multilingual and full precision', () => {
    const names = rankModels(OFFICIAL_MODELS).map((m) => m.name);
    expect(names.slice(0, 5)).toEqual(['large-v3-turbo', 'large-v3-turbo-q8_0', 'large-v3-turbo-q5_0', 'large-v3', 'large-v3-q5_0']);
    expect(names.indexOf('small')).toBeLessThan(names.indexOf('small.en'));
    expect(names.indexOf('base')).toBeLessThan(names.indexOf('base-q5_1'));
    expect(names.at(-1)).toMatch(/^tiny/);
  });
});
