// What the macOS and Windows installers leave out, tried here on Linux: pocketsphinx hidden (its
// library path pointed at nothing), and a PATH with no ffmpeg or espeak-ng on it, so only the ffmpeg
// bundled through npm can convert audio. The real CLI and a real server process, over real HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, exited, serveProcess, type ServerProcess } from '../../support/cli-process.js';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { randomWhisperModel } from '../../support/ggml-model.js';
import { postTranscription } from '../../support/openai-test-server.js';
import { tempDir, toApiResponse } from '../../support/test-server.js';

const NO_POCKETSPHINX = { KIKITORI_POCKETSPHINX_LIBRARY: '/nonexistent/libpocketsphinx.so.3' };
/** A PATH that holds nothing: node is started by its absolute path (process.execPath). */
const emptyPathDir = tempDir('kikitori-empty-path-');
const NO_TOOLS_ON_PATH = { PATH: emptyPathDir };
const dirs: string[] = [emptyPathDir];

let speech: string;
beforeAll(async () => {
  speech = await synthesizeSpeech('the budget meeting moved to next week');
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir('kikitori-platforms-');
  dirs.push(dir);
  return dir;
}

async function createKey(dir: string, env: Record<string, string>): Promise<string> {
  const { stdout } = await cli(['keys', 'create', '--data-dir', dir, '--team', 'acme', '--user', 'alice'], env);
  return stdout.trim().split('\n').at(-1)!;
}

async function api(server: ServerProcess, key: string, method: string, route: string, body?: unknown) {
  const response = await fetch(server.url + route, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return toApiResponse(response);
}

/** Upload ticket, PUT, then POST /transcribe; resolves with the record once it has ended. */
async function transcribe(server: ServerProcess, key: string, file: string, body: Record<string, unknown> = {}) {
  const ticket = await api(server, key, 'POST', '/api/v1/transcriptions/upload', {
    filename: path.basename(file),
    ...body,
  });
  expect(ticket.status).toBe(200);
  expect((await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(file) })).status).toBe(200);
  const id = ticket.json.transcription_id as string;
  expect((await api(server, key, 'POST', `/api/v1/transcriptions/${id}/transcribe`)).status).toBeLessThan(300);
  for (;;) {
    const record = await api(server, key, 'GET', `/api/v1/transcriptions/${id}`);
    if (['COMPLETED', 'FAILED', 'CANCELLED'].includes(record.json.status)) return record.json;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stop(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  await exited(server.child);
}

describe('kikitori-server engines on a machine without pocketsphinx, ffmpeg or espeak-ng installed', () => {
  it('says plainly what is missing, and finds the bundled ffmpeg and ffprobe', async () => {
    const { stdout } = await cli(['engines', '--data-dir', dataDir()], { ...NO_POCKETSPHINX, ...NO_TOOLS_ON_PATH });
    expect(stdout).toMatch(/^pocketsphinx: NOT USABLE\s+\[transcription_model: default, diarization-high\]$/m);
    expect(stdout).toMatch(
      /why: The built-in English speech engine is not installed on this computer\. Download a speech model in Settings → Speech recognition/,
    );
    expect(stdout).toContain('pocketsphinx is missing: cannot load /nonexistent/libpocketsphinx.so.3');
    expect(stdout).toMatch(/^ffmpeg: \S+ \(bundled: .*@ffmpeg-installer\/[a-z0-9]+-[a-z0-9]+\/ffmpeg\)$/m);
    expect(stdout).toMatch(/^ffprobe: \S+ \(bundled: .*@ffprobe-installer\/[a-z0-9]+-[a-z0-9]+\/ffprobe\)$/m);
    expect(stdout).toMatch(/^espeak-ng: MISSING\n {2}why: espeak-ng is not installed .*Install espeak-ng/m);
  });

  it('prefers the system ffmpeg on PATH, and a configured path over both', async () => {
    const onPath = await cli(['engines', '--data-dir', dataDir()]);
    expect(onPath.stdout).toMatch(/^ffmpeg: \S+ \(ffmpeg on PATH\)$/m);
    const bundled = /^ffmpeg: \S+ \(bundled: (.*)\)$/m.exec(
      (await cli(['engines', '--data-dir', dataDir()], NO_TOOLS_ON_PATH)).stdout,
    )![1]!;
    const configured = await cli(['engines', '--data-dir', dataDir()], { KIKITORI_FFMPEG_PATH: bundled });
    expect(configured.stdout).toContain(`(configured: ${bundled})`);
    const broken = await cli(['engines', '--data-dir', dataDir()], { KIKITORI_FFMPEG_PATH: '/nonexistent/ffmpeg' });
    expect(broken.stdout).toMatch(
      /^ffmpeg: MISSING\n {2}why: Audio files cannot be converted on this server .*KIKITORI_FFMPEG_PATH=\/nonexistent\/ffmpeg does not run/m,
    );
  });
});

describe('the server without pocketsphinx', () => {
  it('transcribes with whisper and the bundled ffmpeg, and names whisper', async () => {
    const env = {
      ...NO_POCKETSPHINX,
      ...NO_TOOLS_ON_PATH,
      KIKITORI_ENGINE_DEFAULT: 'whisper',
      KIKITORI_WHISPER_MODEL: await randomWhisperModel(),
    };
    const dir = dataDir();
    const key = await createKey(dir, env);
    const server = await serveProcess(dir, env);
    try {
      const record = await transcribe(server, key, speech, { transcription_model: 'default', language: 'en' });
      expect(record).toMatchObject({ status: 'COMPLETED', transcription_model: expect.stringMatching(/^whisper\//) });
      const document = (await (await fetch(record.transcription_path)).json()) as {
        engine: { name: string; transcription_model: string };
      };
      expect(document.engine).toMatchObject({ name: 'whisper', transcription_model: 'default' });
      // The OpenAI list names only engines that run here: whisper, not pocketsphinx.
      const models = (await (
        await fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { data: { id: string }[] };
      expect(models.data.map((m) => m.id)).toEqual(['whisper-1', 'diarization-high', 'whisper']);
    } finally {
      await stop(server);
    }
  });

  it("with no speech model, fails the transcription with a reason in the user's words, and keeps serving", async () => {
    const dir = dataDir();
    const key = await createKey(dir, NO_POCKETSPHINX);
    const server = await serveProcess(dir, NO_POCKETSPHINX);
    try {
      const record = await transcribe(server, key, speech, { transcription_model: 'default', language: 'en' });
      expect(record.status).toBe('FAILED');
      expect(record.failure_reason).toMatch(
        /^The built-in English speech engine is not installed on this computer\. Download a speech model/,
      );
      expect(record.failure_reason).not.toMatch(/pocketsphinx|koffi|\.so/);

      const sync = await postTranscription(server, key, speech, { model: 'whisper-1' });
      expect(sync.status).toBe(503);
      expect(sync.json.error).toMatchObject({
        code: 'engine_unavailable',
        message: expect.stringMatching(/^The built-in English speech engine is not installed/),
      });

      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    } finally {
      await stop(server);
    }
  });
});

describe('the server without espeak-ng', () => {
  it('transcribes with dictionary words it cannot sound out, and says once in its log why they are left out', async () => {
    const dir = dataDir();
    const key = await createKey(dir, NO_TOOLS_ON_PATH);
    const server = await serveProcess(dir, NO_TOOLS_ON_PATH);
    let log = '';
    server.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    try {
      const dictionary = await api(server, key, 'POST', '/api/v1/dictionaries', {
        name: 'Products',
        words: [{ word: 'Zintrix' }, { word: 'Qwuxle' }, { word: 'budget' }],
      });
      expect(dictionary.status).toBe(200);
      const record = await transcribe(server, key, speech, {
        dictionary_id: dictionary.json.dictionary_id,
        language: 'en',
      });
      expect(record).toMatchObject({
        status: 'COMPLETED',
        transcription_model: expect.stringMatching(/^pocketsphinx\//),
      });
      const warnings = log.split('\n').filter((line) => line.includes('espeak-ng is not installed'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('dictionary words that are not in the CMU dictionary');
    } finally {
      await stop(server);
    }
  });
});
