// What the HTTP benches share: the real CLI as a child process, autocannon load, 10,000 transcriptions
// seeded through the repositories (SQLite or PostgreSQL), and the same-framework ceiling servers (a bare
// handler, and a static body as large as a list page).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../src-server/db/database.js';
import { KyselyKeyRepository } from '../src-server/db/key-repository.js';
import { KyselyTranscriptionRepository } from '../src-server/db/transcription-repository.js';
import { newId } from '../src-server/domain/records.js';

/** The repository root (benches run from dist/bench/). */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const CLI = path.join(ROOT, 'bin/kikitori-server.js');

/** A non-negative number from the environment, or its default. */
export function numberSetting(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

export const DURATION_S = numberSetting('BENCH_DURATION', 8);
export const CONNECTIONS = numberSetting('BENCH_CONNECTIONS', 10);

export interface Started {
  child: ChildProcess;
  /** The URL it printed, or '' for a process that serves none (a worker). */
  url: string;
}

/**
 * Starts a node process and resolves once it prints a URL, or the `ready` text when given (a worker).
 * Throughput is what is measured: the per-key and per-address budgets (decision 0026) are off.
 */
export function startProcess(args: string[], env: Record<string, string> = {}, ready?: string): Promise<Started> {
  const unlimited = { KIKITORI_RATE_LIMIT_PER_KEY: '0', KIKITORI_RATE_LIMIT_PER_IP: '0' };
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, KIKITORI_LOG_LEVEL: 'warn', ...unlimited, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out = (out + d.toString()).slice(-10_000);
      if (ready !== undefined) {
        if (out.includes(ready)) resolve({ child, url: '' });
        return;
      }
      const match = out.match(/listening on (http:\/\/[\d.:]+)/) ?? out.match(/(http:\/\/[\d.:]+)/);
      if (match) resolve({ child, url: match[1]! });
    });
    child.once('exit', (code) => reject(new Error(`${args.slice(0, 3).join(' ')}: process exited early (${code})`)));
  });
}

/** `kikitori-server serve` with extra arguments, resolved once ready (`--role worker`: its ready line). */
export function startServe(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const worker = args.includes('worker');
  return startProcess([CLI, 'serve', ...args], env, worker ? 'worker ready' : undefined);
}

export const stop = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};

export function memoryKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+)`))![1]);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time the serving process spent per request (user + system), when its pid was given. */
  cpuUsPerRequest: number | null;
}

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  /** The process that serves `url`, to measure the CPU it spends per request. */
  pid?: number;
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
export function processCpuSeconds(pid: number): number {
  // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14th and 15th.
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
/** USER_HZ: what /proc counts CPU time in (100 on Linux builds for every common architecture). */
const CLOCK_TICKS = 100;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/**
 * Loads each target in turn, one slice of a second at a time, for DURATION_S seconds each, each round
 * starting with another target, so that every target meets the same machine: on a shared virtual machine the CPU one gets swings by 3x within minutes,
 * and back-to-back runs of several seconds compared those swings more than the servers. Requests/s is the
 * total over all slices; p50 and p99 are the medians of the slices'. With a target's pid, also the CPU
 * time its process spent per request: what the machine's swings move least, since a process waiting for
 * a core it does not get spends no CPU time.
 */
export async function compareLoads<T extends LoadTarget[]>(targets: [...T]): Promise<{ [K in keyof T]: LoadResult }> {
  const slices = targets.map(() => [] as Array<{ requests: number; seconds: number; p50: number; p99: number; errors: number; cpu: number }>);
  for (let round = 0; round < Math.max(1, Math.round(DURATION_S)); round++) {
    // Each round starts with the next target: the first slice of a round measured up to 10 % faster.
    for (let turn = 0; turn < targets.length; turn++) {
      const i = (round + turn) % targets.length;
      const target = targets[i];
      const cpuBefore = target.pid === undefined ? 0 : processCpuSeconds(target.pid);
      const result = await autocannon({ url: target.url, connections: CONNECTIONS, duration: 1, headers: target.headers ?? {} });
      const cpu = target.pid === undefined ? 0 : processCpuSeconds(target.pid) - cpuBefore;
      slices[i]!.push({ requests: result.requests.total, seconds: result.duration, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, cpu });
    }
  }
  const total = (runs: typeof slices[number], field: 'requests' | 'seconds' | 'errors' | 'cpu') => runs.reduce((sum, r) => sum + r[field], 0);
  return slices.map((runs, i) => ({
    rps: total(runs, 'requests') / total(runs, 'seconds'),
    cpuUsPerRequest: targets[i]?.pid === undefined ? null : (total(runs, 'cpu') * 1e6) / total(runs, 'requests'),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: total(runs, 'errors'),
  })) as { [K in keyof T]: LoadResult };
}

/**
 * Stores `count` COMPLETED transcriptions of team "bench" through the repositories, in the SQLite file of
 * `dataDir` or in the PostgreSQL database at `databaseUrl`, and returns an API key of that team.
 */
export async function seedTranscriptions(dataDir: string, count: number, databaseUrl: string | null = null): Promise<string> {
  const db = await openDatabase({ dataDir, database: { url: databaseUrl } });
  const { key } = await new KyselyKeyRepository(db.kysely).create({ teamId: 'bench', userId: 'bench', roles: [] });
  const start = Date.now() - count * 1000;
  await db.kysely.transaction().execute(async (trx) => {
    const repo = new KyselyTranscriptionRepository(trx);
    for (let i = 0; i < count; i++) {
      const createdAt = new Date(start + i * 1000).toISOString();
      await repo.create({
        transcriptionId: newId(),
        teamId: 'bench',
        userId: 'bench',
        dictionaryId: null,
        name: `recording-${i}.wav`,
        languages: ['en'],
        transcriptionModel: 'default',
        numSpeakers: null,
        minSpeakers: null,
        maxSpeakers: null,
        uploadExpiresAt: createdAt,
        createdAt,
      });
    }
  });
  await db.kysely
    .updateTable('transcriptions')
    .set({ status: 'COMPLETED', upload_status: 'COMPLETED', transcript_key: 'x', audio_key: 'y', speaking_duration: 12.5 })
    .execute();
  await db.close();
  return key;
}

/**
 * The same framework (Fastify) with no application code: `/bare` answers `{"ok":true}` and `/static-page`
 * a constant JSON body of `pageBytes`. On a 2-core machine the load generator shares the CPU, so bytes
 * per response bound the rate too: the static page is the ceiling for a list page of that size.
 */
export function startCeilingServer(pageBytes: number): Promise<Started> {
  return startProcess([
    '--input-type=module',
    '-e',
    `import Fastify from 'fastify';
     const app = Fastify();
     const page = JSON.stringify('x'.repeat(${Math.max(2, pageBytes)} - 2));
     app.get('/bare', async () => ({ ok: true }));
     app.get('/static-page', async (request, reply) => reply.type('application/json').send(page));
     console.log(await app.listen({ host: '127.0.0.1', port: 0 }));`,
  ]);
}

/** GET `url` once with `headers`: the page's size in bytes and its item count (warms the server too). */
export async function probePage(url: string, headers: Record<string, string>): Promise<{ pageBytes: number; items: number }> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { pageBytes: bytes.byteLength, items: (JSON.parse(bytes.toString('utf8')) as unknown[]).length };
}
