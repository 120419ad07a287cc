// `kikitori-server serve --role api|worker|all` as real processes of the built CLI, on one SQLite data
// dir (issue 9, items 2 and 6): api and worker processes complete a transcription uploaded to the api;
// a worker stopped by SIGTERM mid-job hands it back and the next worker completes it; `all` runs its jobs
// in a worker process, so /healthz answers while a transcription with 2,000 forced replacements runs;
// SIGTERM drains (/readyz 503) and exits 0; several processes need one signing secret.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../src-shared/error-codes.js';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { CLI, cli, exited } from '../../support/cli-process.js';
import { tempDir, toApiResponse } from '../../support/test-server.js';

const run = promisify(execFile);
const SECRET = 'roles-test-secret-0123456789abcdef0123456789abcdef';
// Real transcriptions and several server processes, on a machine other work shares.
const HEAVY = 300_000;
const dirs: string[] = [];
const children: ChildProcess[] = [];
let longFile = '';

beforeAll(async () => {
  // One fixture for every test: ~15 s of real speech, long enough that a job is still running when the
  // test acts on it.
  const sentence = await synthesizeSpeech('we will review the quarterly numbers on monday morning');
  const base = await concatWithSilence([sentence, sentence], 1);
  const dir = tempDir('kikitori-roles-audio-');
  dirs.push(dir);
  longFile = path.join(dir, 'long.wav');
  await run('sox', [base, longFile, 'repeat', '1']);
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    child.kill('SIGKILL');
    await exited(child);
  }
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = tempDir('kikitori-roles-');
  dirs.push(dir);
  return dir;
}

async function createKey(dir: string): Promise<string> {
  const { stdout } = await cli(['keys', 'create', '--data-dir', dir, '--team', 'acme', '--user', 'alice']);
  return stdout.trim().split('\n').at(-1)!;
}

/** Every JSON log line a process (and, for `all`, its worker) writes to stdout, as they come. */
function logLines(child: ChildProcess): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const line of parts) if (line.startsWith('{')) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  return lines;
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 5000; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A `worker` process; resolves with it and its pid once it prints its ready line. */
function startWorker(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; logs: Array<Record<string, unknown>> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--role', 'worker', '--data-dir', dir], {
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const logs = logLines(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes(`kikitori-server worker ready (pid ${child.pid})`)) resolve({ child, logs });
    });
    child.once('exit', (code) => reject(new Error(`worker exited with ${code} before it was ready`)));
  });
}

/** `serve` (role from env), its log lines read from the start: an `all` process's worker logs before the URL. */
function serve(
  dir: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; logs: Array<Record<string, unknown>> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dir], {
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const logs = logLines(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const match = out.match(/listening on (http:\/\/\S+)/);
      if (match) resolve({ child, url: match[1]!, logs });
    });
    child.once('exit', (code) => reject(new Error(`kikitori-server exited with ${code} before it was ready`)));
  });
}

function client(url: string, key: string) {
  const api = async (route: string, method = 'GET', body?: unknown) =>
    toApiResponse(
      await fetch(url + route, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
    );
  return {
    api,
    /** Uploads the long fixture and starts its transcription; resolves with its id. */
    async transcribe(extra: Record<string, unknown> = {}): Promise<string> {
      const ticket = await api('/api/v1/transcriptions/upload', 'POST', { filename: 'long.wav', ...extra });
      expect(ticket.status).toBe(200);
      expect(
        (await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: fs.readFileSync(longFile) })).status,
      ).toBe(200);
      expect((await api(`/api/v1/transcriptions/${ticket.json.transcription_id}/transcribe`, 'POST')).status).toBe(200);
      return ticket.json.transcription_id as string;
    },
    status: async (id: string) =>
      (await api(`/api/v1/transcriptions/${id}`)).json as {
        status: string;
        progress: number;
        transcription_path: string;
      },
  };
}

const working = (record: { status: string; progress: number }) =>
  record.status === 'IN_PROGRESS' && record.progress > 0.1;

function jobRows(dir: string): Array<{ name: string; state: string; attempts: number; worker_id: string | null }> {
  const db = new Database(path.join(dir, 'kikitori.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT name, state, attempts, worker_id FROM jobs ORDER BY created_at').all() as never;
  } finally {
    db.close();
  }
}

describe('server roles', () => {
  it(
    'api and worker processes on one data dir complete a transcription; a worker stopped by SIGTERM hands its job to the next',
    { timeout: HEAVY },
    async () => {
      const dir = dataDir();
      const key = await createKey(dir);
      const env = { KIKITORI_SIGNING_SECRET: SECRET };
      const first = await startWorker(dir, { ...env, KIKITORI_DRAIN_SECONDS: '0' });
      const api = await serve(dir, { ...env, KIKITORI_ROLE: 'api' });
      const c = client(api.url, key);
      // The api process checks its backends; it supervises no worker.
      const health = await (await fetch(`${api.url}/healthz`)).json();
      expect(health).toMatchObject({
        status: 'ok',
        role: 'api',
        components: { database: { status: 'ok' }, storage: { status: 'ok' }, queue: { status: 'ok' } },
      });
      expect(health.components.worker).toBeUndefined();

      const id = await c.transcribe();
      await until('the worker at work', async () => (working(await c.status(id)) ? true : undefined));
      first.child.kill('SIGTERM');
      await exited(first.child);
      expect(first.child.exitCode).toBe(0);
      // No grace (KIKITORI_DRAIN_SECONDS=0): the job went back to the queue, its attempt given back.
      expect(jobRows(dir)).toEqual([{ name: 'transcribe', state: 'queued', attempts: 0, worker_id: null }]);
      expect(first.logs.some((l) => l.msg === 'job interrupted by shutdown; queued again')).toBe(true);

      const second = await startWorker(dir, env);
      const done = await until('the transcription to end', async () => {
        const record = await c.status(id);
        return ['COMPLETED', 'FAILED'].includes(record.status) ? record : undefined;
      });
      expect(done.status).toBe('COMPLETED');
      const document = await (await fetch(done.transcription_path)).json();
      expect(document.text).toMatch(/quarterly|numbers|monday/);
      // The second worker ran it; the api process ran no job.
      expect(second.logs.find((l) => l.msg === 'job completed')).toMatchObject({
        pid: second.child.pid,
        job: 'transcribe',
      });
      expect(api.logs.some((l) => typeof l.jobId === 'string')).toBe(false);
      expect(jobRows(dir)).toEqual([
        {
          name: 'transcribe',
          state: 'completed',
          attempts: 1,
          worker_id: expect.stringContaining(`:${second.child.pid}:`),
        },
      ]);
    },
  );

  it(
    '`all` runs jobs in its worker process: /healthz answers while a transcription with 2,000 forced replacements runs',
    { timeout: HEAVY },
    async () => {
      const dir = dataDir();
      const key = await createKey(dir);
      const server = await serve(dir);
      const c = client(server.url, key);
      const workerPid = await until(
        'the worker process',
        () => server.logs.find((l) => l.msg === 'worker ready')?.pid as number | undefined,
      );
      expect(workerPid).not.toBe(server.child.pid);

      // 2,000 forced replacements (the bulk route takes 1,000 at a time); one of them matches the speech.
      const dictionary = (await c.api('/api/v1/dictionaries', 'POST', { name: 'large' })).json.dictionary_id as string;
      const rules = Array.from({ length: 2000 }, (_, k) =>
        k === 0
          ? { pattern: 'quarterly', replacement: 'QUARTERLY' }
          : k % 2
            ? { pattern: `term${k}`, replacement: `T${k}` }
            : { pattern: `term${k} part${k}`, replacement: `TP${k}` },
      );
      for (const chunk of [rules.slice(0, 1000), rules.slice(1000)]) {
        expect((await c.api(`/api/v1/dictionaries/${dictionary}/blacklist_words/bulk`, 'POST', chunk)).status).toBe(
          200,
        );
      }

      const id = await c.transcribe({ dictionary_id: dictionary });
      const latencies: number[] = [];
      let answeredWhileRunning = 0;
      for (;;) {
        const t0 = performance.now();
        const health = await fetch(`${server.url}/healthz`);
        latencies.push(performance.now() - t0);
        expect(health.status).toBe(200);
        const body = await health.json();
        expect(body.components.worker).toEqual({ status: 'ok', detail: `pid ${workerPid}` });
        const record = await c.status(id);
        if (record.status === 'IN_PROGRESS') answeredWhileRunning++;
        if (['COMPLETED', 'FAILED'].includes(record.status)) {
          expect(record.status).toBe('COMPLETED');
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      latencies.sort((a, b) => a - b);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
      console.log(
        `/healthz during a transcription with 2,000 forced replacements (\`all\`): ${latencies.length} requests, median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`,
      );
      expect(answeredWhileRunning).toBeGreaterThan(0);

      const document = await (await fetch((await c.status(id)).transcription_path)).json();
      expect(document.text).toContain('QUARTERLY');
      // The job ran in the worker process, not in the HTTP one.
      expect(server.logs.find((l) => l.msg === 'job completed')).toMatchObject({ pid: workerPid, job: 'transcribe' });

      // Applying the dictionary again to the finished transcript is a job of the worker too.
      expect(
        (await c.api(`/api/v1/transcriptions/${id}/replacements/apply`, 'POST', { dictionary_id: dictionary })).status,
      ).toBe(200);
      expect(server.logs.find((l) => l.msg === 'forced replacements applied')).toMatchObject({
        pid: workerPid,
        job: 'apply-replacements',
      });
    },
  );

  it(
    'SIGTERM drains `all`: /readyz answers 503 while the running job finishes, then the process exits 0',
    { timeout: HEAVY },
    async () => {
      const dir = dataDir();
      const key = await createKey(dir);
      const server = await serve(dir, { KIKITORI_DRAIN_SECONDS: '600' });
      const c = client(server.url, key);
      expect(await (await fetch(`${server.url}/readyz`)).json()).toEqual({ status: 'ready' });
      await until('the worker process', () => server.logs.find((l) => l.msg === 'worker ready'));
      const id = await c.transcribe();
      await until('the worker at work', async () => (working(await c.status(id)) ? true : undefined));

      server.child.kill('SIGTERM');
      const notReady = await until('/readyz to turn 503', async () => {
        const response = await fetch(`${server.url}/readyz`);
        return response.status === 503 ? response.json() : undefined;
      });
      expect(notReady).toEqual({
        error_id: expect.any(String),
        error_code: ErrorCode.NOT_READY,
        error_message: expect.stringContaining('shutting down'),
      });
      // Still draining: the job runs on, and HTTP still answers its status.
      expect((await c.status(id)).status).toBe('IN_PROGRESS');

      await exited(server.child);
      expect(server.child.exitCode).toBe(0);
      expect(jobRows(dir)).toEqual([
        { name: 'transcribe', state: 'completed', attempts: 1, worker_id: expect.any(String) },
      ]);
      expect(server.logs.some((l) => l.msg === 'draining: letting running jobs finish; taking no new ones')).toBe(true);
    },
  );

  it(
    '`all` restarts a worker process that dies, reporting it in /healthz meanwhile; its own death takes the worker with it',
    { timeout: HEAVY },
    async () => {
      const dir = dataDir();
      const server = await serve(dir);
      const firstPid = await until(
        'the worker process',
        () => server.logs.find((l) => l.msg === 'worker ready')?.pid as number | undefined,
      );
      process.kill(firstPid, 'SIGKILL');
      const failing = await until('/healthz to report the dead worker', async () => {
        const response = await fetch(`${server.url}/healthz`);
        return response.status === 503 ? response.json() : undefined;
      });
      expect(failing).toMatchObject({
        error_code: ErrorCode.UNHEALTHY,
        status: 'failing',
        components: {
          database: { status: 'ok' },
          worker: {
            status: 'failing',
            detail: expect.stringMatching(/^worker process was killed \(SIGKILL\); restarting in \d+ s$/),
          },
        },
      });
      expect(failing.error_message).toContain('worker');

      const secondPid = await until(
        'a new worker process',
        () => server.logs.find((l) => l.msg === 'worker ready' && l.pid !== firstPid)?.pid as number | undefined,
      );
      const healthy = await until('/healthz to be ok again', async () => {
        const response = await fetch(`${server.url}/healthz`);
        return response.status === 200 ? response.json() : undefined;
      });
      expect(healthy.components.worker).toEqual({ status: 'ok', detail: `pid ${secondPid}` });

      server.child.kill('SIGKILL');
      await exited(server.child);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await until('the worker process to exit with its parent', () => (alive(secondPid) ? undefined : true));
    },
  );

  it('refuses to start an api process, or a server on a shared database, without KIKITORI_SIGNING_SECRET', async () => {
    const dir = dataDir();
    await expect(
      cli(['serve', '--role', 'api', '--port', '0', '--data-dir', dir], { KIKITORI_SIGNING_SECRET: '' }),
    ).rejects.toMatchObject({
      stderr: expect.stringMatching(
        /Configuration error: KIKITORI_SIGNING_SECRET is required: KIKITORI_ROLE=api runs beside other processes.*openssl rand/,
      ),
    });
    await expect(
      cli(['serve', '--port', '0', '--data-dir', dir], {
        KIKITORI_SIGNING_SECRET: '',
        KIKITORI_DATABASE_URL: 'postgres://kikitori@127.0.0.1:1/kikitori',
      }),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('KIKITORI_SIGNING_SECRET is required: KIKITORI_DATABASE_URL is set'),
    });
  });
});
