// kikitori-server as a cluster (issue 9): 2 api and 2 worker processes of the real CLI on one real PostgreSQL
// (records and the pg-boss queue) and one S3-compatible store (s3rver), each process with its own data dir.
// 20 transcriptions spread across the api nodes complete exactly once; a worker SIGKILLed mid-job has its
// job finished by the other; both api nodes list the same items; audio streams from S3 with Range requests.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatWithSilence, synthesizeSpeech } from '../../support/audio-fixtures.js';
import { CLI, cli, exited } from '../../support/cli-process.js';
import { testDatabase } from '../../support/postgres.js';
import { startS3, type S3Server } from '../../support/s3.js';
import { tempDir, toApiResponse } from '../../support/test-server.js';

type LogLine = Record<string, unknown> & { msg?: string };

interface Proc {
  name: string;
  child: ChildProcess;
  logs: LogLine[];
  url?: string;
}

const JOBS = 20;
let s3: S3Server;
let env: Record<string, string>;
let fixture: string;
const procs: Proc[] = [];
const dirs: string[] = [];

function dataDir(): string {
  const dir = tempDir('kikitori-cluster-');
  dirs.push(dir);
  return dir;
}

/** Starts `serve` with a role; resolves once it says it is ready (its URL, or the worker's ready line). */
function start(name: string, role: 'api' | 'worker'): Promise<Proc> {
  const child = spawn(process.execPath, [CLI, 'serve', '--role', role, '--port', '0', '--data-dir', dataDir()], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: Proc = { name, child, logs: [] };
  procs.push(proc);
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('{')) proc.logs.push(JSON.parse(line) as LogLine);
        const url = line.match(/listening on (http:\/\/\S+)/)?.[1];
        if (url) {
          proc.url = url;
          resolve(proc);
        }
        if (line.includes(`worker ready (pid ${child.pid})`)) resolve(proc);
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready:\n${stderr}`)));
  });
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (let i = 0; i < 6000; i++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  s3 = await startS3({ buckets: ['cluster'] });
  env = {
    ...s3.env('cluster', 'kikitori'),
    KIKITORI_DATABASE_URL: await testDatabase('kikitori_cluster'),
    KIKITORI_SIGNING_SECRET: 'cluster-test-signing-secret-of-at-least-32-bytes',
    KIKITORI_LOG_LEVEL: 'info',
    // pg-boss's shortest heartbeat: a SIGKILLed worker's job is taken over after it.
    KIKITORI_JOB_STALE_AFTER_MS: '10000',
    KIKITORI_RATE_LIMIT_PER_KEY: '0',
    KIKITORI_RATE_LIMIT_PER_IP: '0',
  };
  // Long enough (about 9 s of speech, a second or more of work) that a worker can be killed in the middle of
  // one; each second costs 20 recognitions, so no longer.
  const sentence = await synthesizeSpeech(
    'the weather report for tomorrow says rain in the morning and sun in the afternoon',
    undefined,
    { voice: 'espeak' },
  );
  fixture = await concatWithSilence([sentence, sentence], 0.5);
});

afterAll(async () => {
  for (const proc of procs)
    if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill('SIGKILL');
  await Promise.all(procs.map((proc) => exited(proc.child)));
  await s3?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a cluster of 2 api and 2 worker processes on PostgreSQL and S3', () => {
  it('completes every transcription exactly once, survives a SIGKILLed worker, lists the same items on both api nodes and streams audio from S3', async () => {
    // All four start at once on an empty database: the migrations run once, under their advisory lock.
    const [apiA, apiB, workerA, workerB] = await Promise.all([
      start('api-a', 'api'),
      start('api-b', 'api'),
      start('worker-a', 'worker'),
      start('worker-b', 'worker'),
    ]);
    const { stdout } = await cli(['keys', 'create', '--team', 'acme', '--user', 'alice'], {
      KIKITORI_DATABASE_URL: env.KIKITORI_DATABASE_URL!,
    });
    const key = stdout.trim().split('\n').at(-1)!;
    const api = async (base: string, route: string, method = 'GET', body?: unknown) =>
      toApiResponse(
        await fetch(base + route, {
          method,
          headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
    const audio = fs.readFileSync(fixture);

    // 20 transcriptions, alternating between the api nodes; the bytes go to S3 through presigned URLs.
    const ids: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const base = (i % 2 === 0 ? apiA : apiB).url!;
      const ticket = await api(base, '/api/v1/transcriptions/upload', 'POST', { filename: `meeting-${i}.wav` });
      expect(ticket.status).toBe(200);
      expect(ticket.json.audio_upload_url.startsWith(s3.endpoint)).toBe(true);
      expect((await fetch(ticket.json.audio_upload_url, { method: 'PUT', body: audio })).status).toBe(200);
      expect(
        (await api(base, `/api/v1/transcriptions/${ticket.json.transcription_id}/transcribe`, 'POST')).status,
      ).toBe(200);
      ids.push(ticket.json.transcription_id as string);
    }

    // SIGKILL worker A in the middle of a job: one it started and has not finished.
    const running = await until('worker A in the middle of a job', () => {
      const started = workerA.logs.filter((l) => l.msg === 'job started' && l.job === 'transcribe');
      const ended = new Set(workerA.logs.filter((l) => l.msg === 'job completed').map((l) => l.jobId));
      return started.find((l) => !ended.has(l.jobId));
    });
    workerA.child.kill('SIGKILL');
    await exited(workerA.child);
    const killedKey = running.singletonKey as string;

    // Every transcription completes.
    for (const id of ids) {
      const record = await until(`transcription ${id} to end`, async () => {
        const response = await api(apiB.url!, `/api/v1/transcriptions/${id}`);
        return ['COMPLETED', 'FAILED'].includes(response.json?.status) ? response.json : undefined;
      });
      expect(record.status, `${id}: ${record.failure_reason}`).toBe('COMPLETED');
    }

    // A record reads COMPLETED a moment before its job is marked completed: wait until pg-boss has no
    // transcribe job left unfinished, so every completion there will ever be has been logged.
    const db = new pg.Client({ connectionString: env.KIKITORI_DATABASE_URL });
    await db.connect();
    try {
      await until('every transcribe job to be finished in pg-boss', async () => {
        const { rows } = await db.query<{ state: string; n: number }>(
          `SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = 'transcribe' GROUP BY state`,
        );
        return rows.length === 1 && rows[0]!.state === 'completed' ? rows : undefined;
      });
    } finally {
      await db.end();
    }

    // Exactly once: each transcription's job completed on one worker, one time; the killed one on worker B.
    const workers = [workerA, workerB];
    const keyOfJob = new Map(
      workers.flatMap((w) =>
        w.logs.filter((l) => l.msg === 'job started').map((l) => [l.jobId, l.singletonKey] as const),
      ),
    );
    const completions = workers.flatMap((w) =>
      w.logs
        .filter((l) => l.msg === 'job completed' && l.job === 'transcribe')
        .map((l) => ({ worker: w.name, key: keyOfJob.get(l.jobId) })),
    );
    for (const id of ids)
      expect(
        completions.filter((c) => c.key === `transcribe:${id}`),
        id,
      ).toHaveLength(1);
    expect(completions).toHaveLength(JOBS);
    expect(completions.find((c) => c.key === killedKey)?.worker).toBe('worker-b');
    expect(
      workerB.logs.some((l) => l.msg === 'job started' && l.singletonKey === killedKey && Number(l.attempt) >= 2),
    ).toBe(true);
    // Worker A took part before it was killed.
    expect(workerA.logs.some((l) => l.msg === 'job started')).toBe(true);

    // Both api nodes list the same items.
    const listed = async (base: string) => {
      const all: string[] = [];
      for (let page = 1; ; page++) {
        const response = await api(base, `/api/v1/transcriptions?page=${page}`);
        expect(response.status).toBe(200);
        if (response.json.length === 0) return all;
        all.push(...(response.json as Array<{ transcription_id: string }>).map((t) => t.transcription_id));
      }
    };
    const [onA, onB] = await Promise.all([listed(apiA.url!), listed(apiB.url!)]);
    expect(onA).toEqual(onB);
    expect([...onA].sort()).toEqual([...ids].sort());

    // The transcript is real, and the audio streams from S3 with a Range request.
    const record = (await api(apiA.url!, `/api/v1/transcriptions/${ids[0]}`)).json;
    const transcript = (await (await fetch(record.transcription_path)).json()) as {
      segments?: Array<{ text: string }>;
    };
    expect(JSON.stringify(transcript).toLowerCase()).toMatch(/rain|morning|weather|afternoon/);
    const ranged = await fetch(record.audio_path, { headers: { range: 'bytes=100-1123' } });
    expect(ranged.status).toBe(206);
    expect(ranged.url.startsWith(s3.endpoint)).toBe(true);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(audio.subarray(100, 1124))).toBe(true);
  }, 900_000);
});
