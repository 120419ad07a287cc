// The downloader's resume rules against a real local HTTP server, and the catalogue's ranking.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_MODELS, rankModels } from '../../../../src-server/models/catalogue.js';
import { downloadModelFile, partPath } from '../../../../src-server/models/downloader.js';
import { randomWhisperModel } from '../../../support/ggml-model.js';
import { tempDir } from '../../../support/temp-dir.js';

// A real (random-weight) whisper model: only a file whisper.cpp can load is installed.
let body: Buffer;
let sha256: string;
let mode: 'ignore-range' | 'refuse-range' | 'not-a-model' = 'ignore-range';
const notAModel = Buffer.alloc(64 * 1024, 'GGUF but not whisper ');
const ranges: (string | undefined)[] = [];
let server: http.Server;
let url: string;
let dir: string;

beforeAll(async () => {
  body = fs.readFileSync(await randomWhisperModel());
  sha256 = createHash('sha256').update(body).digest('hex');
  server = http.createServer((req, res) => {
    ranges.push(req.headers.range);
    if (mode === 'refuse-range' && req.headers.range) {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    const sent = mode === 'not-a-model' ? notAModel : body;
    res.writeHead(200, { 'content-length': sent.length }).end(sent);
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

  it('does not install bytes that match the catalogue but are no whisper model, and keeps no part', async () => {
    mode = 'not-a-model';
    const entry = {
      ...target(),
      bytes: notAModel.length,
      sha256: createHash('sha256').update(notAModel).digest('hex'),
    };
    const refused = await downloadModelFile(entry).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      kind: 'unusable',
      message: expect.stringMatching(
        /^The speech model "m" was downloaded, but it is not a speech model this server can load, so it was not installed\./,
      ),
      detail: expect.stringMatching(/SHA-256 matches the catalogue, but .*wrong magic number/),
    });
    expect(fs.readdirSync(dir)).toEqual([]);
    mode = 'ignore-range';
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
    expect(names.slice(0, 5)).toEqual([
      'large-v3-turbo',
      'large-v3-turbo-q8_0',
      'large-v3-turbo-q5_0',
      'large-v3',
      'large-v3-q5_0',
    ]);
    expect(names.indexOf('small')).toBeLessThan(names.indexOf('small.en'));
    expect(names.indexOf('base')).toBeLessThan(names.indexOf('base-q5_1'));
    expect(names.at(-1)).toMatch(/^tiny/);
  });
});
