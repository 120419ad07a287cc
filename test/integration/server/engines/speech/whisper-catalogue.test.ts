// The whisper model catalogue, offline-safe downloads and verification (src-server/models/), and the
// `models` / `engines` commands. No test reaches the internet: downloads go to a refused loopback port
// or a local server. The full lifecycle (resume, cancel, HTTP routes) is test/integration/server/models.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WHISPER_MODELS, whisperModelsDir } from '../../../../../src-server/engines/speech/whisper-catalogue.js';
import { OFFICIAL_MODELS } from '../../../../../src-server/models/catalogue.js';
import { ModelManager } from '../../../../../src-server/models/manager.js';
import { ModelError } from '../../../../../src-server/models/model-error.js';
import { cli } from '../../../../support/cli-process.js';
import { tempDir } from '../../../../support/test-server.js';

let dataDir: string;
let refused: string;

beforeAll(async () => {
  dataDir = tempDir();
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  refused = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  await new Promise((resolve) => server.close(resolve));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const manager = (baseUrl = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main') =>
  new ModelManager({ dataDir, baseUrl, catalogue: OFFICIAL_MODELS });
const downloadWhisperModel = (name: string, options: { baseUrl?: string }) => manager(options.baseUrl).download(name);
const verifyWhisperModel = (name: string) => manager().verify(name);

describe('whisper models', () => {
  it('lists the official models with exact sizes and published hashes', () => {
    const names = WHISPER_MODELS.map((m) => m.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'tiny',
        'tiny.en',
        'base',
        'base.en',
        'small',
        'small.en',
        'medium',
        'medium.en',
        'large-v3',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const m of WHISPER_MODELS) {
      expect(m.file).toBe(`ggml-${m.name}.bin`);
      // SHA-1 is listed in whisper.cpp's README for the full-precision files only.
      if (!m.quantized) expect(m.sha1).toMatch(/^[0-9a-f]{40}$/);
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.multilingual).toBe(!m.name.includes('.en'));
      expect(m.quantized).toBe(/-q\d_\d$/.test(m.name));
    }
    expect(WHISPER_MODELS.find((m) => m.name === 'large-v3-turbo-q5_0')).toMatchObject({
      bytes: 574_041_195,
      quantized: true,
      multilingual: true,
    });
    expect(WHISPER_MODELS.find((m) => m.name === 'base')).toMatchObject({
      bytes: 147_951_465,
      sha1: '465707469ff3a37a2b9b8d8f89f2f99de7299dac',
    });
  });

  it('fails clearly when offline, and keeps no partial or wrong file', async () => {
    const offline = downloadWhisperModel('tiny', { baseUrl: refused });
    await expect(offline).rejects.toThrow(ModelError);
    // Offline may pass: running the download again later can succeed. The message is in the user's terms; the details name the cause.
    await expect(offline).rejects.toMatchObject({ kind: 'unreachable', detail: expect.stringMatching(/ECONNREFUSED/) });
    await expect(downloadWhisperModel('tiny', { baseUrl: refused })).rejects.toThrow(
      /Could not reach the model server.*Check the network connection.*mirror/,
    );
    await expect(downloadWhisperModel('huge', {})).rejects.toThrow(/no speech model called "huge"/);
    await expect(downloadWhisperModel('huge', {})).rejects.toMatchObject({ kind: 'not-found' });

    // A server that sends too little, then the wrong bytes.
    let body = Buffer.alloc(1000);
    let status = 200;
    const server = http.createServer((_req, res) => {
      res.statusCode = status;
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toThrow(/stopped at 1000 of 77691713 bytes/);
      // An interrupted transfer keeps its part for the next attempt (which resumes it), never the final name.
      expect(fs.readdirSync(whisperModelsDir(dataDir))).toEqual(['ggml-tiny.bin.part']);
      fs.rmSync(path.join(whisperModelsDir(dataDir), 'ggml-tiny.bin.part'));
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toMatchObject({ kind: 'interrupted' });
      fs.rmSync(path.join(whisperModelsDir(dataDir), 'ggml-tiny.bin.part'));
      body = Buffer.alloc(77_691_713 + 1);
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toThrow(
        /more data than the speech model "tiny" has/,
      );
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toMatchObject({ kind: 'corrupt' });
      // A mirror without the file, and an overloaded one: the user is told which, the status is in the details.
      body = Buffer.alloc(0);
      status = 404;
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toMatchObject({
        kind: 'source-failed',
        message: expect.stringMatching(/does not have the speech model "tiny"/),
        detail: expect.stringMatching(/HTTP 404/),
      });
      status = 503;
      await expect(downloadWhisperModel('tiny', { baseUrl: url })).rejects.toMatchObject({
        kind: 'source-failed',
        message: expect.stringMatching(/Try again later/),
        detail: expect.stringMatching(/HTTP 503/),
      });
    } finally {
      server.close();
    }
    expect(fs.existsSync(whisperModelsDir(dataDir)) ? fs.readdirSync(whisperModelsDir(dataDir)) : []).toEqual([]);
  });

  it('verifies size and hashes', async () => {
    expect(await verifyWhisperModel('base.en')).toMatchObject({
      present: false,
      ok: false,
      problem: expect.stringMatching(/not downloaded/),
    });
    fs.mkdirSync(whisperModelsDir(dataDir), { recursive: true });
    fs.writeFileSync(path.join(whisperModelsDir(dataDir), 'ggml-base.en.bin'), 'not a model');
    expect(await verifyWhisperModel('base.en')).toMatchObject({
      present: true,
      ok: false,
      problem: expect.stringMatching(/size is 11 bytes/),
    });
  });

  it('has `models` and `engines` commands', async () => {
    const list = await cli(['models', 'list', '--data-dir', dataDir]);
    expect(list.stdout).toMatch(/^large-v3 +2\.9 GiB +multilingual +slowest\/best +ggml-large-v3\.bin +-$/m);
    expect(list.stdout).toMatch(/^base\.en .*incomplete \(11 of 147964211 bytes\)$/m);

    const download = await cli(['models', 'download', 'tiny', '--data-dir', dataDir], {
      KIKITORI_MODEL_BASE_URL: refused,
    }).catch((e: { code: number; stderr: string }) => e);
    expect(download).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/Could not reach the model server to download "tiny"[^]*ECONNREFUSED/),
    });

    const verify = await cli(['models', 'verify', '--data-dir', dataDir]).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(verify).toMatchObject({ code: 1, stdout: expect.stringMatching(/base\.en: FAILED: size is 11 bytes/) });

    const engines = await cli(['engines', '--json', '--data-dir', dataDir], {
      KIKITORI_ENGINE_DEFAULT: 'whisper',
      KIKITORI_WHISPER_MODEL: 'tiny',
    });
    const reports = JSON.parse(engines.stdout) as {
      name: string;
      usable: boolean;
      reason: string | null;
      servesModels: string[];
    }[];
    expect(reports.map((r) => r.name)).toEqual(['pocketsphinx', 'whisper', 'remote']);
    expect(reports[1]).toMatchObject({
      usable: false,
      servesModels: ['default', 'diarization-high'],
      reason: expect.stringMatching(/ggml-tiny\.bin does not exist.*models download/),
    });
    expect(reports[2]).toMatchObject({ usable: false, reason: expect.stringMatching(/KIKITORI_REMOTE_ASR_BASE_URL/) });

    const bad = await cli(['engines'], { KIKITORI_ENGINE_DEFAULT: 'wisper' }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/KIKITORI_ENGINE_DEFAULT must be one of pocketsphinx, whisper, remote, auto/),
    });
  });
});
