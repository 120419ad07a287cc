// What the HTTP benches share: the real CLI as a child process, autocannon load, 10,000 transcriptions
// seeded through the repositories (SQLite or PostgreSQL), and the same-framework ceiling servers (a bare
// handler, and a static body as large as a list page).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openDatabase } from '../src-server/db/database.js';
import { KyselyKeyRepository } from '../src-server/db/key-repository.js';
import { KyselyTranscriptionRepository } from '../src-server/db/transcription-repository.js';
import { newId } from '../src-server/domain/records.js';
import { median } from './stats.js';

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
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, KIKITORI_LOG_LEVEL: 'warn', ...unlimited, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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
  /** CPU time the serving processes spent per request (user + system), when their pids were given. */
  cpuUsPerRequest: number | null;
  /** The one-second turns the result combines, for {@link pairedRatio}. */
  turns: Turn[];
}

/** One turn of one process of a target; `at` counts the turns of the whole comparison, in the order they ran. */
export interface Turn {
  at: number;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
  cpu: number;
}

export interface LoadTarget {
  url: string;
  headers?: Record<string, string>;
  /** The process that serves `url`, to measure the CPU it spends per request (and to pin it to its own cores). */
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

/**
 * Seconds of load each process gets before its turns are counted (BENCH_WARMUP). The api process settles
 * last: in 1.5-second windows of load its CPU per request measured 106, 74, 48, 45, 42, 42 µs (the static
 * ceiling's 53, 36, 32, 32, 30, 32), so its first 4.5 seconds are compilation more than serving.
 */
export const WARMUP_S = numberSetting('BENCH_WARMUP', 5);

/**
 * Gives this process (the load generator) the first core and `pids` the others, with taskset, for as long
 * as `run` takes; then gives this process every core again. Without it, on a 2-core machine the scheduler
 * moves the server and autocannon between the cores, and a server's rate depends on where it was put more
 * than on its code. Returns whether the cores were split (not on one core, or without taskset).
 */
export async function onSeparateCores<T>(pids: number[], run: (pinned: boolean) => Promise<T>): Promise<T> {
  const cores = os.availableParallelism();
  const taskset = (cpus: string, pid: number) =>
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', cpus, String(pid)], { stdio: 'ignore' });
  const everyCore = () => {
    try {
      taskset(`0-${cores - 1}`, process.pid);
    } catch {
      // No taskset: nothing was pinned.
    }
  };
  let pinned = false;
  if (cores >= 2 && pids.length > 0) {
    try {
      taskset('0', process.pid);
      for (const pid of new Set(pids)) taskset(`1-${cores - 1}`, pid);
      pinned = true;
    } catch {
      // No taskset (util-linux), or a server gone: the cores stay shared, which the output says.
      everyCore();
    }
  }
  try {
    return await run(pinned);
  } finally {
    if (pinned) everyCore();
  }
}

function summarize(turns: Turn[], withCpu: boolean): LoadResult {
  const total = (field: 'requests' | 'seconds' | 'errors' | 'cpu') => turns.reduce((sum, r) => sum + r[field], 0);
  return {
    rps: total('requests') / total('seconds'),
    cpuUsPerRequest: withCpu ? (total('cpu') * 1e6) / total('requests') : null,
    p50: median(turns.map((r) => r.p50)),
    p99: median(turns.map((r) => r.p99)),
    errors: total('errors'),
    turns,
  };
}

/**
 * `a` beside `b` turn by turn: each turn of `a` is paired with the turn of `b` that ran closest to it (a
 * second or two apart, on the same machine), and the medians of the pairs' ratios are returned:
 * requests/s of a over b, and CPU per request of b over a (null without pids). On a shared machine the
 * CPU one gets swings by 2-3x within minutes; pooled totals weigh whichever target such a swing happened
 * to hit, while the median of pairs keeps the swings out of the ratio.
 */
export function pairedRatio(a: LoadResult, b: LoadResult): { rps: number; cpu: number | null; pairs: number } {
  const pairs = a.turns.flatMap((turn) => {
    const nearest = b.turns.reduce<Turn | null>(
      (best, t) => (best === null || Math.abs(t.at - turn.at) < Math.abs(best.at - turn.at) ? t : best),
      null,
    );
    return nearest && turn.requests > 0 && nearest.requests > 0 ? [{ a: turn, b: nearest }] : [];
  });
  const withCpu = a.cpuUsPerRequest !== null && b.cpuUsPerRequest !== null;
  return {
    rps: median(pairs.map((p) => p.a.requests / p.a.seconds / (p.b.requests / p.b.seconds))),
    cpu: withCpu ? median(pairs.map((p) => p.b.cpu / p.b.requests / (p.a.cpu / p.a.requests))) : null,
    pairs: pairs.length,
  };
}

/** The answer of compareLoads: whether the load generator and the servers had cores of their own, and a result per target. */
export interface Comparison<T extends unknown[]> {
  pinned: boolean;
  results: { [K in keyof T]: LoadResult };
}

/**
 * Loads each target in turn, one second at a time, for DURATION_S seconds each, each round starting with
 * another target, so that every target meets the same machine: on a shared virtual machine the CPU one
 * gets swings by 3x within minutes, and back-to-back runs of several seconds compared those swings more
 * than the servers. A target may be served by several processes (an array of targets): each takes its own
 * turns, and the result combines them, since two processes of the same build settle at costs up to 20 %
 * apart. Before the turns, each process is warmed up for WARMUP_S seconds (its first seconds cost up to 3x
 * as much CPU per request while V8 compiles it). The load generator and the servers get separate cores
 * ({@link onSeparateCores}).
 *
 * Requests/s is the total over all turns; p50 and p99 are the medians of the turns'. With a target's pid,
 * also the CPU time its processes spent per request: what the machine's swings move least, since a
 * process waiting for a core it does not get spends no CPU time. Each result keeps its turns, for
 * {@link pairedRatio}.
 */
export async function compareLoads<T extends Array<LoadTarget | LoadTarget[]>>(
  targets: [...T],
): Promise<Comparison<T>> {
  const groups: LoadTarget[][] = targets.map((target: LoadTarget | LoadTarget[]) =>
    Array.isArray(target) ? target : [target],
  );
  // Turns alternate between targets (the first process of each, then the second...).
  const turns: Array<{ group: number; target: LoadTarget }> = [];
  for (let k = 0; k < Math.max(...groups.map((g) => g.length)); k++) {
    groups.forEach((g, group) => {
      if (k < g.length) turns.push({ group, target: g[k]! });
    });
  }
  const slices = groups.map(() => [] as Turn[]);
  let at = 0;
  const turn = async (target: LoadTarget, seconds: number): Promise<Turn> => {
    const cpuBefore = target.pid === undefined ? 0 : processCpuSeconds(target.pid);
    const result = await autocannon({
      url: target.url,
      connections: CONNECTIONS,
      duration: seconds,
      headers: target.headers ?? {},
    });
    const cpu = target.pid === undefined ? 0 : processCpuSeconds(target.pid) - cpuBefore;
    return {
      at: at++,
      requests: result.requests.total,
      seconds: result.duration,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx,
      cpu,
    };
  };
  const pids = turns.flatMap((t) => (t.target.pid === undefined ? [] : [t.target.pid]));
  return onSeparateCores(pids, async (pinned) => {
    if (WARMUP_S > 0) for (const { target } of turns) await turn(target, WARMUP_S);
    for (let round = 0; round < Math.max(1, Math.round(DURATION_S)); round++) {
      // Each round starts with the next turn: the first slice of a round measured up to 10 % faster.
      for (let k = 0; k < turns.length; k++) {
        const { group, target } = turns[(round + k) % turns.length]!;
        slices[group]!.push(await turn(target, 1));
      }
    }
    const results = slices.map((runs, i) =>
      summarize(
        runs,
        groups[i]!.every((t) => t.pid !== undefined),
      ),
    ) as { [K in keyof T]: LoadResult };
    return { pinned, results };
  });
}

/**
 * Stores `count` COMPLETED transcriptions of team "bench" through the repositories, in the SQLite file of
 * `dataDir` or in the PostgreSQL database at `databaseUrl`, and returns an API key of that team.
 */
export async function seedTranscriptions(
  dataDir: string,
  count: number,
  databaseUrl: string | null = null,
): Promise<string> {
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
    .set({
      status: 'COMPLETED',
      upload_status: 'COMPLETED',
      transcript_key: 'x',
      audio_key: 'y',
      speaking_duration: 12.5,
    })
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
export async function probePage(
  url: string,
  headers: Record<string, string>,
): Promise<{ pageBytes: number; items: number }> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { pageBytes: bytes.byteLength, items: (JSON.parse(bytes.toString('utf8')) as unknown[]).length };
}
