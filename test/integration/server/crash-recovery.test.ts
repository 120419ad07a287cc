// A server killed with SIGKILL in the middle of a transcription loses nothing: after a restart the
// job runs again and completes, with the audio and record intact.
import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { cli, exited, serveProcess, type ServerProcess } from '../../support/cli-process.js';
import { tempDir, toApiResponse } from '../../support/test-server.js';

const run = promisify(execFile);
const dataDir = tempDir('kikitori-crash-');
let server: ServerProcess | null = null;

afterAll(async () => {
  if (server) {
    server.child.kill('SIGKILL');
    await exited(server.child);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('crash recovery', () => {
  it('completes a transcription whose server was SIGKILLed mid-job', async () => {
    const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
    const base = await concatWithSilence([sentence, sentence], 1);
    // Long enough (~90 s) that the kill lands while the engine is still working.
    const longFile = path.join(tempDir(), 'long.wav');
    await run('sox', [base, longFile, 'repeat', '11']);

    const { stdout } = await cli(['keys', 'create', '--data-dir', dataDir, '--team', 'acme', '--user', 'alice']);
    const key = stdout.trim().split('\n').at(-1)!;
    const api = async (url: string, method = 'GET', body?: unknown) =>
      toApiResponse(
        await fetch(url, {
          method,
          headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );

    server = await serveProcess(dataDir);
    const ticket = await api(`${server.url}/api/v1/transcriptions/upload`, 'POST', { filename: 'long.wav' });
    const id = ticket.json.transcription_id;
    expect((await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(longFile) })).status).toBe(200);
    expect((await api(`${server.url}/api/v1/transcriptions/${id}/transcribe`, 'POST')).status).toBe(200);

    // Wait until the engine is at work, then kill without warning.
    for (;;) {
      const record = await api(`${server.url}/api/v1/transcriptions/${id}`);
      if (record.json.status === 'IN_PROGRESS' && record.json.progress > 0.15) break;
      expect(record.json.status).not.toBe('COMPLETED');
      await new Promise((r) => setTimeout(r, 50));
    }
    server.child.kill('SIGKILL');
    await exited(server.child);

    server = await serveProcess(dataDir);
    const before = await api(`${server.url}/api/v1/transcriptions/${id}`);
    expect(before.json.status).not.toBe('COMPLETED');
    expect(before.json.upload_status).toBe('COMPLETED');

    let record = before;
    while (!['COMPLETED', 'FAILED'].includes(record.json.status)) {
      await new Promise((r) => setTimeout(r, 200));
      record = await api(`${server.url}/api/v1/transcriptions/${id}`);
    }
    expect(record.json.status).toBe('COMPLETED');
    const document = await (await fetch(record.json.transcription_path)).json();
    expect(document.text).toMatch(/quarterly|numbers|monday/);
    expect(document.duration).toBeGreaterThan(80);
    // The job ran twice: once cut short by the kill, once to completion.
    const db = new Database(path.join(dataDir, 'kikitori.sqlite'), { readonly: true });
    expect(db.prepare('SELECT attempts, state FROM jobs').all()).toEqual([{ attempts: 2, state: 'completed' }]);
    db.close();
    // Two runs of ~90 s of speech on a shared 2-core machine: a generous bound, not a timing assertion.
  }, 360_000);
});
