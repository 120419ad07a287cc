// Secrets stay out of the logs and the data dir stays private, on the real CLI (the built server) with
// a full upload and transcription.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { synthesizeSpeech } from '../../support/audio-fixtures.js';
import { cli, exited, serveProcess, type ServerProcess } from '../../support/cli-process.js';
import { tempDir } from '../../support/test-server.js';

const root = tempDir('kikitori-private-');
// Not created yet: the server creates it.
const dataDir = path.join(root, 'data');
let server: ServerProcess;
let key: string;
let log = '';

const api = async (method: string, route: string, headers: Record<string, string>, body?: unknown) => {
  const response = await fetch(server.url + route, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: any = await response.json().catch(() => undefined);
  return { status: response.status, json };
};

beforeAll(async () => {
  const created = await cli(['keys', 'create', '--data-dir', dataDir, '--team', 'acme', '--user', 'alice']);
  key = created.stdout.trim().split('\n').at(-1)!;
  // Every level: nothing below trace may log a secret either.
  server = await serveProcess(dataDir, { KIKITORI_LOG_LEVEL: 'trace' });
  server.child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
});
afterAll(async () => {
  if (server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await exited(server.child);
  }
  fs.rmSync(root, { recursive: true, force: true });
});

/** Every entry under `dir`, with its permission bits. */
function modes(dir: string): { file: string; directory: boolean; mode: number }[] {
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).map((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return { file: path.relative(dir, file), directory: entry.isDirectory(), mode: fs.statSync(file).mode & 0o777 };
  });
}

describe('secrets and files', () => {
  const signatures: string[] = [];

  it('runs a full upload and transcription, with signed URLs and both kinds of key header', async () => {
    const wav = await synthesizeSpeech('please send the report by friday');
    const ticket = await api(
      'POST',
      '/api/v1/transcriptions/upload',
      { 'x-api-key': key },
      { filename: 'report.wav', language: 'en' },
    );
    expect(ticket.status).toBe(200);
    const uploadUrl = new URL(ticket.json.audio_upload_url as string);
    signatures.push(uploadUrl.searchParams.get('signature')!);
    expect((await fetch(uploadUrl, { method: 'PUT', body: fs.readFileSync(wav) })).status).toBe(200);

    const id = ticket.json.transcription_id as string;
    const bearer = { authorization: `Bearer ${key}` };
    expect((await api('POST', `/api/v1/transcriptions/${id}/transcribe`, bearer)).status).toBe(200);
    let record: any;
    for (;;) {
      record = (await api('GET', `/api/v1/transcriptions/${id}`, bearer)).json;
      if (record.status === 'COMPLETED' || record.status === 'FAILED') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(record.status).toBe('COMPLETED');

    for (const signed of [record.audio_path, record.transcription_path] as string[]) {
      const url = new URL(signed);
      signatures.push(url.searchParams.get('signature')!);
      expect((await fetch(url)).status).toBe(200);
      // A failing signed request is logged with its error too. Its first character changed: ending it in
      // "AA" left one signature in 256 as it was (a 16-byte MAC's last character is one of A, Q, g, w).
      const real = url.searchParams.get('signature')!;
      url.searchParams.set('signature', `${real.startsWith('A') ? 'B' : 'A'}${real.slice(1)}`);
      signatures.push(url.searchParams.get('signature')!);
      expect((await fetch(url)).status).toBe(403);
    }
    // A wrong key is logged with its 401.
    expect((await api('GET', '/api/v1/transcriptions', { 'x-api-key': `${key}x` })).status).toBe(401);
  });

  it('logs the requests without any signature or key', async () => {
    server.child.kill('SIGTERM');
    await exited(server.child);
    expect(server.child.exitCode).toBe(0);
    // The requests were logged (paths included), only the secrets were not.
    expect(log).toContain('/files/audio/');
    expect(log).toContain('[redacted]');
    expect(signatures).toHaveLength(5);
    for (const signature of signatures) expect(log).not.toContain(signature);
    expect(log).not.toContain(key);
  });

  it('keeps the data dir and everything in it private: 0700 directories, 0600 files', () => {
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    const entries = modes(dataDir);
    // What a transcription leaves: the database, the signing key, the audio and the transcript.
    const files = entries.filter((e) => !e.directory).map((e) => e.file);
    expect(files).toEqual(expect.arrayContaining(['kikitori.sqlite', 'signing.key']));
    expect(files.filter((f) => f.startsWith(`storage${path.sep}`)).length).toBeGreaterThanOrEqual(2);
    for (const entry of entries)
      expect({ file: entry.file, mode: entry.mode.toString(8) }).toEqual({
        file: entry.file,
        mode: entry.directory ? '700' : '600',
      });
  });

  it('refuses to start with a signing secret under 32 bytes, saying so', async () => {
    const failure = await cli(['serve', '--port', '0', '--data-dir', dataDir], {
      KIKITORI_SIGNING_SECRET: 'too-short-secret',
    }).catch((e: { code: number; stderr: string }) => e);
    expect(failure).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^Configuration error: KIKITORI_SIGNING_SECRET must be at least 32 bytes/),
    });
    expect((failure as { stderr: string }).stderr).not.toContain('too-short-secret');
  });
});
