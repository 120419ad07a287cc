// A server killed with SIGKILL in the middle of a transcription loses nothing: after a restart the
// job runs again and completes, with the audio and record intact. An OpenAI request killed the same way
// is not run again (nobody waits for it any more): its job fails and its upload and PCM file go.
import { execFile } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { audioDuration, concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { cli, exited, serveProcess, type ServerProcess } from '../../support/cli-process.js';
import { tempDir, toApiResponse } from '../../support/test-server.js';

const run = promisify(execFile);
const dataDir = tempDir('kikitori-crash-');
const openAiDataDir = tempDir('kikitori-crash-openai-');
let server: ServerProcess | null = null;
/** Every server started, so none outlives the file (each test starts its own and restarts it). */
const started: ServerProcess[] = [];
const serve = async (dir: string) => {
  const running = await serveProcess(dir);
  started.push(running);
  return running;
};

afterAll(async () => {
  for (const running of started)
    if (running.child.exitCode === null && running.child.signalCode === null) {
      running.child.kill('SIGKILL');
      await exited(running.child);
    }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(openAiDataDir, { recursive: true, force: true });
});

describe('crash recovery', () => {
  it('completes a transcription whose server was SIGKILLed mid-job', async () => {
    const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
    const base = await concatWithSilence([sentence, sentence], 1);
    // Long enough (~30 s, a few seconds of recognition) that the kill lands while the engine is still working:
    // the job runs once cut short and once in full, so each second of audio costs twice.
    const longFile = path.join(tempDir(), 'long.wav');
    await run('sox', [base, longFile, 'repeat', '3']);

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

    server = await serve(dataDir);
    const ticket = await api(`${server.url}/api/v1/transcriptions/upload`, 'POST', { filename: 'long.wav' });
    const id = ticket.json.transcription_id;
    expect((await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(longFile) })).status).toBe(
      200,
    );
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

    server = await serve(dataDir);
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
    // The whole recording, not what was left after the kill.
    expect(document.duration).toBeGreaterThan((await audioDuration(longFile)) - 1);
    // The job ran twice: once cut short by the kill, once to completion.
    const db = new Database(path.join(dataDir, 'kikitori.sqlite'), { readonly: true });
    expect(db.prepare('SELECT attempts, state FROM jobs').all()).toEqual([{ attempts: 2, state: 'completed' }]);
    db.close();
    // Two runs of ~30 s of speech on a shared 2-core machine: a generous bound, not a timing assertion.
  }, 360_000);

  it('fails, rather than runs again, an OpenAI request whose server was SIGKILLed mid-job, and removes its files', async () => {
    const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
    const longFile = path.join(tempDir(), 'long-openai.wav');
    await run('sox', [await concatWithSilence([sentence, sentence], 1), longFile, 'repeat', '7']);
    const { stdout } = await cli(['keys', 'create', '--data-dir', openAiDataDir, '--team', 'acme', '--user', 'alice']);
    const key = stdout.trim().split('\n').at(-1)!;
    const jobs = () => {
      const db = new Database(path.join(openAiDataDir, 'kikitori.sqlite'), { readonly: true });
      try {
        return db
          .prepare(`SELECT state, attempts, last_error FROM jobs WHERE name = 'openai-transcribe'`)
          .all() as Array<{ state: string; attempts: number; last_error: string | null }>;
      } finally {
        db.close();
      }
    };
    const uploads = () =>
      fs.existsSync(path.join(openAiDataDir, 'storage', 'openai'))
        ? fs.readdirSync(path.join(openAiDataDir, 'storage', 'openai'))
        : [];
    const pcms = () =>
      fs.existsSync(path.join(openAiDataDir, 'work'))
        ? fs.readdirSync(path.join(openAiDataDir, 'work')).filter((n) => /^openai-.*\.pcm$/.test(n))
        : [];

    server = await serve(openAiDataDir);
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([new Uint8Array(fs.readFileSync(longFile))]), 'long.wav');
    const answer = fetch(`${server.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    }).catch((e: unknown) => e);
    // Kill while the engine is at work: the job is running, its upload and decoded PCM on disk.
    for (;;) {
      if (jobs()[0]?.state === 'active' && pcms().length > 0) break;
      expect(jobs()[0]?.state ?? 'none').not.toBe('completed');
      await new Promise((r) => setTimeout(r, 50));
    }
    server.child.kill('SIGKILL');
    await exited(server.child);
    expect(await answer).toBeInstanceOf(Error);
    expect(uploads()).toHaveLength(1);

    server = await serve(openAiDataDir);
    await expect.poll(() => jobs()[0]?.state, { timeout: 60_000, interval: 200 }).toBe('failed');
    expect(jobs()).toEqual([
      { state: 'failed', attempts: 2, last_error: expect.stringMatching(/stopped while working on this request/) },
    ]);
    await expect.poll(uploads, { timeout: 10_000, interval: 100 }).toEqual([]);
    expect(pcms()).toEqual([]);
  }, 360_000);
});
