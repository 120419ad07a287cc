// npm run bench:cluster — kikitori-server as a cluster (issue 9), from one run:
//  1. transcriptions per minute with 1 and with 2 worker processes (`serve --role worker`, one job at a
//     time each) behind one `serve --role api`, on a throwaway PostgreSQL (records and the pg-boss queue)
//     and s3rver (audio), with a batch of real speech (espeak-ng): the time from the first /transcribe to
//     the last COMPLETED, the ratio, and the CPU each part used meanwhile (what shared the cores), in
//     BENCH_WORKER_ROUNDS (4) alternating rounds: the median of the rounds' ratios, and the pooled one; in each
//     round also the same pipeline alone (pipeline-alone.ts) in 1 and in 2 processes, the machine's ceiling;
//  2. GET /api/v1/transcriptions with 10,000 stored rows on PostgreSQL (+ S3) and on SQLite (+ files):
//     requests/s and p99, beside the same framework sending a static body of the page's size (the ceiling),
//     each served by BENCH_PROCESSES processes (3), warmed up, on cores apart from the load generator's;
//     the ratio is the median over paired turns (each list turn beside the static turn next to it).
// Prints figures; asserts nothing. Sizes for a quick run: BENCH_CLUSTER_JOBS, BENCH_WORKER_ROUNDS, BENCH_ROWS,
// BENCH_DURATION, BENCH_CONNECTIONS, BENCH_PROCESSES, BENCH_WARMUP; BENCH_ONLY=workers or BENCH_ONLY=list runs one part.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PAGE_SIZE } from '../src-server/config.js';
import { concatWithSilence, synthesizeSpeech } from '../test/support/audio-fixtures.js';
import { startPostgres, type PostgresServer } from '../test/support/postgres.js';
import { startS3, type S3Server } from '../test/support/s3.js';
import { median } from './stats.js';
import {
  CLI,
  compareLoads,
  CONNECTIONS,
  DURATION_S,
  numberSetting,
  pairedRatio,
  WARMUP_S,
  probePage,
  seedTranscriptions,
  startCeilingServer,
  startServe,
  stop,
  type LoadResult,
  type Started,
} from './http-load.js';

const run = promisify(execFile);
const JOBS = numberSetting('BENCH_CLUSTER_JOBS', 8);
const ROWS = numberSetting('BENCH_ROWS', 10_000);
/**
 * Rounds of the worker comparison, in the order 1, 2 workers then 2, 1 and so on: a shared machine's
 * speed drifts by more than the difference measured (the same job cost 3.1 and 3.9 CPU-s in two runs
 * minutes apart). Alternating cancels a steady drift, and the median of the rounds' ratios leaves out a
 * round that a swing of the machine fell on.
 */
const WORKER_ROUNDS = Math.max(1, Math.round(numberSetting('BENCH_WORKER_ROUNDS', 4)));
// The worker part polls the list's first page for the whole batch.
if (JOBS > PAGE_SIZE) throw new Error(`BENCH_CLUSTER_JOBS must be at most ${PAGE_SIZE}, the list's page size`);
const ONLY = (process.env.BENCH_ONLY ?? 'workers,list').split(',');
/** Processes serving the list, and the ceiling: each settles at its own cost, up to 20 % from another's. */
const PROCESSES = Math.max(1, Math.round(numberSetting('BENCH_PROCESSES', 3)));
const SIGNING_SECRET = 'bench-cluster-signing-secret-of-at-least-32-bytes';
const BUCKET = 'bench';

const benchStart = performance.now();
/** Progress on stderr, so a long run shows where it is. */
const progress = (text: string) =>
  process.stderr.write(`[${((performance.now() - benchStart) / 1000).toFixed(0)} s] ${text}\n`);

const tempDirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-cluster-'));
  tempDirs.push(dir);
  return dir;
}

// ---- CPU accounting from /proc (Linux): clock ticks of a process and its descendants, reaped ones included.

const TICK_S = 0.01; // USER_HZ is 100 on Linux
interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime */
  ticks: number;
}

function readStat(pid: number): ProcStat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // rest[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
    return {
      pid,
      ppid: Number(rest[1]),
      ticks: Number(rest[11]) + Number(rest[12]) + Number(rest[13]) + Number(rest[14]),
    };
  } catch {
    return null; // gone meanwhile
  }
}

function allStats(): ProcStat[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
}

/** CPU seconds of each root pid and everything below it. */
function treeSeconds(roots: number[]): number {
  const stats = allStats();
  const children = new Map<number, ProcStat[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const byPid = new Map(stats.map((s) => [s.pid, s]));
  let ticks = 0;
  const visit = (pid: number) => {
    ticks += byPid.get(pid)?.ticks ?? 0;
    for (const child of children.get(pid) ?? []) visit(child.pid);
  };
  roots.forEach(visit);
  return ticks * TICK_S;
}

/** Busy CPU seconds of the whole machine (all cores), from /proc/stat. */
function machineBusySeconds(): number {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  // user nice system idle iowait irq softirq steal: all but idle and iowait are busy.
  const ticks = fields.slice(0, 8).map(Number);
  return ticks.reduce((sum, t, i) => (i === 3 || i === 4 ? sum : sum + t), 0) * TICK_S;
}

/** The postmaster of the server listening on `port` (found by its command line). */
function postmasterPid(port: string): number {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('/postgres') && argv.includes('-p') && argv[argv.indexOf('-p') + 1] === port)
        return Number(name);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no postmaster on port ${port}`);
}

const ownSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

// ---- 1. transcriptions per minute with N workers

async function recordings(): Promise<string[]> {
  const sentences = [
    'the weather report for tomorrow says rain in the morning and sun in the afternoon',
    'please send the quarterly budget to the finance team before the meeting on friday',
    'our new office opens next month and everyone will have a desk near the window',
    'the train to the airport leaves every twenty minutes from the central station',
  ];
  const spoken = [];
  for (const sentence of sentences) spoken.push(await synthesizeSpeech(sentence, undefined, { voice: 'espeak' }));
  // Four recordings of about 10 s each: two sentences each, in rotated pairs.
  const files = [];
  for (let r = 0; r < sentences.length; r++)
    files.push(await concatWithSilence([spoken[r]!, spoken[(r + 1) % spoken.length]!], 0.5));
  return files;
}

interface ThroughputResult {
  workers: number;
  round: number;
  completed: number;
  failed: string[];
  seconds: number;
  perMinute: number;
  audioSeconds: number;
  cpu: { workers: number; api: number; postgres: number; bench: number; machine: number };
}

async function throughput(
  postgres: PostgresServer,
  s3: S3Server,
  files: string[],
  workers: number,
  round: number,
): Promise<ThroughputResult> {
  const databaseUrl = await postgres.createDatabase('kikitori_bench');
  const env = {
    ...s3.env(BUCKET, `w${workers}`),
    KIKITORI_DATABASE_URL: databaseUrl,
    KIKITORI_SIGNING_SECRET: SIGNING_SECRET,
    KIKITORI_JOB_CONCURRENCY: '1',
  };
  const started: Started[] = [];
  try {
    // The api node first (it migrates), then the workers together.
    const api = await startServe(['--role', 'api', '--port', '0', '--data-dir', tempDir()], env);
    started.push(api);
    started.push(
      ...(await Promise.all(
        Array.from({ length: workers }, () => startServe(['--role', 'worker', '--data-dir', tempDir()], env)),
      )),
    );
    const { stdout } = await run(process.execPath, [
      CLI,
      'keys',
      'create',
      '--database-url',
      databaseUrl,
      '--team',
      'bench',
      '--user',
      'bench',
    ]);
    const key = stdout.trim().split('\n').at(-1)!;
    const call = async (route: string, method = 'GET', body?: unknown) => {
      const response = await fetch(api.url + route, {
        method,
        headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };

    // The uploads are not timed: the batch is in S3 before the clock starts.
    const audio = files.map((file) => fs.readFileSync(file));
    const ids: string[] = [];
    let audioSeconds = 0;
    for (let i = 0; i < JOBS; i++) {
      const bytes = audio[i % audio.length]!;
      audioSeconds += (bytes.length - 44) / 32_000; // 16 kHz mono 16-bit WAV
      const ticket = await call('/api/v1/transcriptions/upload', 'POST', { filename: `meeting-${i}.wav` });
      const put = await fetch(ticket.audio_upload_url as string, { method: 'PUT', body: bytes });
      if (!put.ok) throw new Error(`upload ${i}: ${put.status} ${await put.text()}`);
      ids.push(ticket.transcription_id as string);
    }

    const pgPid = postmasterPid(new URL(databaseUrl).port);
    const workerPids = started.slice(1).map((s) => s.child.pid!);
    const cpuNow = () => ({
      workers: treeSeconds(workerPids),
      api: treeSeconds([api.child.pid!]),
      postgres: treeSeconds([pgPid]),
      bench: ownSeconds(),
      machine: machineBusySeconds(),
    });
    progress(`${workers} worker(s): ${JOBS} uploaded, transcribing`);
    const cpuBefore = cpuNow();
    const t0 = performance.now();
    for (const id of ids) await call(`/api/v1/transcriptions/${id}/transcribe`, 'POST');
    const pending = new Set(ids);
    const failed: string[] = [];
    let last = t0;
    // One list request per poll (the batch fits on the list's first page), as the desktop polls: one
    // request per pending transcription would take CPU from the workers this measures.
    while (pending.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const records = (await call('/api/v1/transcriptions')) as unknown as Array<Record<string, unknown>>;
      for (const record of records) {
        const id = record.transcription_id as string;
        if (pending.has(id) && (record.status === 'COMPLETED' || record.status === 'FAILED')) {
          last = performance.now();
          pending.delete(id);
          if (record.status === 'FAILED') failed.push(`${id}: ${String(record.failure_reason)}`);
        }
      }
      if (performance.now() - t0 > 30 * 60_000)
        throw new Error(`${pending.size} transcriptions still running after 30 minutes`);
    }
    const cpuAfter = cpuNow();
    progress(`${workers} worker(s): done in ${((last - t0) / 1000).toFixed(1)} s`);
    const seconds = (last - t0) / 1000;
    const cpu = Object.fromEntries(
      Object.entries(cpuAfter).map(([k, v]) => [k, v - cpuBefore[k as keyof typeof cpuBefore]]),
    ) as ThroughputResult['cpu'];
    return {
      workers,
      round,
      completed: JOBS - failed.length,
      failed,
      seconds,
      perMinute: ((JOBS - failed.length) / seconds) * 60,
      audioSeconds,
      cpu,
    };
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
  }
}

/** The pipeline alone, in `processes` processes at once (JOBS split between them): see pipeline-alone.ts. */
interface AloneResult {
  processes: number;
  round: number;
  perMinute: number;
}

async function pipelineAlone(files: string[], processes: number, round: number): Promise<AloneResult> {
  const script = path.join(import.meta.dirname, 'pipeline-alone.js');
  const shares = Array.from(
    { length: processes },
    (_, i) => Math.floor(JOBS / processes) + (i < JOBS % processes ? 1 : 0),
  );
  const outputs = await Promise.all(shares.map((jobs) => run(process.execPath, [script, String(jobs), ...files])));
  // Each process times its jobs once its engine is loaded, as the workers are ready before their clock
  // starts; the batch takes as long as the slower process.
  const seconds = Math.max(
    ...outputs.map(({ stdout }) => (JSON.parse(stdout.trim().split('\n').at(-1)!) as { seconds: number }).seconds),
  );
  progress(`the pipeline alone in ${processes} process(es): ${JOBS} in ${seconds.toFixed(1)} s`);
  return { processes, round, perMinute: (JOBS / seconds) * 60 };
}

// ---- 2. the list with ROWS rows, on PostgreSQL and on SQLite, beside the ceiling

interface ListResult {
  backend: string;
  items: number;
  pageBytes: number;
  pinned: boolean;
  list: LoadResult;
  bare: LoadResult;
  staticPage: LoadResult;
}

/** Starts `count` processes, stopping those started when one fails. */
async function startAll(count: number, start: () => Promise<Started>): Promise<Started[]> {
  const started: Started[] = [];
  try {
    for (let i = 0; i < count; i++) started.push(await start());
    return started;
  } catch (error) {
    await Promise.all(started.map((s) => stop(s.child)));
    throw error;
  }
}

/** The list served by PROCESSES api processes, beside PROCESSES ceiling processes. */
async function listOn(backend: string, key: string, start: () => Promise<Started>): Promise<ListResult> {
  const servers = await startAll(PROCESSES, start);
  const headers = { 'x-api-key': key };
  const { pageBytes, items } = await probePage(`${servers[0]!.url}/api/v1/transcriptions`, headers);
  const ceilings = await startAll(PROCESSES, () => startCeilingServer(pageBytes)).catch(async (error: unknown) => {
    await Promise.all(servers.map((s) => stop(s.child)));
    throw error;
  });
  try {
    progress(`loading the list on ${backend} (${PROCESSES} processes of each)`);
    const { pinned, results } = await compareLoads([
      servers.map((s) => ({ url: `${s.url}/api/v1/transcriptions`, headers, pid: s.child.pid! })),
      ceilings.map((c) => ({ url: `${c.url}/static-page`, pid: c.child.pid! })),
      ceilings.map((c) => ({ url: `${c.url}/bare`, pid: c.child.pid! })),
    ]);
    const [list, staticPage, bare] = results;
    return { backend, items, pageBytes, pinned, list, bare, staticPage };
  } finally {
    await Promise.all([...servers, ...ceilings].map((s) => stop(s.child)));
  }
}

async function listOnPostgres(postgres: PostgresServer, s3: S3Server): Promise<ListResult> {
  const databaseUrl = await postgres.createDatabase('kikitori_bench_list');
  const dataDir = tempDir();
  progress(`seeding ${ROWS} rows on PostgreSQL`);
  const key = await seedTranscriptions(dataDir, ROWS, databaseUrl);
  progress('seeded');
  const env = {
    ...s3.env(BUCKET, 'list'),
    KIKITORI_DATABASE_URL: databaseUrl,
    KIKITORI_SIGNING_SECRET: SIGNING_SECRET,
  };
  return listOn('PostgreSQL + S3', key, () => startServe(['--role', 'api', '--port', '0', '--data-dir', dataDir], env));
}

async function listOnSqlite(): Promise<ListResult> {
  const dataDir = tempDir();
  progress(`seeding ${ROWS} rows on SQLite`);
  const key = await seedTranscriptions(dataDir, ROWS);
  progress('seeded');
  return listOn('SQLite + files', key, () =>
    startServe(['--role', 'api', '--port', '0', '--data-dir', dataDir], { KIKITORI_SIGNING_SECRET: SIGNING_SECRET }),
  );
}

// ---- the run

const pad = (s: string, n: number) => s.padEnd(n);
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
const load1 = () => os.loadavg()[0]!.toFixed(2);

const [postgres, s3] = await Promise.all([startPostgres(), startS3({ buckets: [BUCKET] })]);
const loadBefore = load1();
const rates: ThroughputResult[] = [];
const alone: AloneResult[] = [];
const lists: ListResult[] = [];
try {
  if (ONLY.includes('workers')) {
    progress('making recordings');
    const files = await recordings();
    for (let round = 1; round <= WORKER_ROUNDS; round++) {
      for (const workers of round % 2 === 1 ? [1, 2] : [2, 1])
        rates.push(await throughput(postgres, s3, files, workers, round));
      for (const processes of round % 2 === 1 ? [1, 2] : [2, 1])
        alone.push(await pipelineAlone(files, processes, round));
    }
  }
  if (ONLY.includes('list')) {
    lists.push(await listOnPostgres(postgres, s3));
    lists.push(await listOnSqlite());
  }
} finally {
  await s3.stop();
  await postgres.stop();
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
}

console.log(
  `\nkikitori-server cluster benchmark (${os.cpus().length} cores; load average ${loadBefore} at the start, ${load1()} at the end)\n`,
);
if (rates.length > 0) {
  const minutes = rates[0]!.audioSeconds / JOBS;
  console.log(
    `Transcriptions per minute: ${JOBS} recordings of ${minutes.toFixed(1)} s of espeak-ng speech each, from the first /transcribe to the last COMPLETED;`,
  );
  console.log(
    '1 `serve --role api` + N `serve --role worker` (KIKITORI_JOB_CONCURRENCY=1, default engine), PostgreSQL (records + pg-boss), s3rver (audio).',
  );
  console.log(
    `${pad('round', 7)}${pad('workers', 9)}${pad('done', 7)}${pad('seconds', 10)}${pad('per minute', 12)}${pad('audio s / wall s', 18)}${pad('worker CPU s / job', 20)}CPU seconds meanwhile: workers / api / PostgreSQL / s3rver+bench client / rest of the machine (of ${os.cpus().length} cores x wall)`,
  );
  for (const r of rates) {
    const ours = r.cpu.workers + r.cpu.api + r.cpu.postgres + r.cpu.bench;
    const rest = Math.max(0, r.cpu.machine - ours);
    console.log(
      `${pad(String(r.round), 7)}${pad(String(r.workers), 9)}${pad(`${r.completed}/${JOBS}`, 7)}${pad(r.seconds.toFixed(1), 10)}${pad(r.perMinute.toFixed(2), 12)}${pad((r.audioSeconds / r.seconds).toFixed(2), 18)}${pad((r.cpu.workers / JOBS).toFixed(1), 20)}` +
        `${r.cpu.workers.toFixed(1)} / ${r.cpu.api.toFixed(1)} / ${r.cpu.postgres.toFixed(1)} / ${r.cpu.bench.toFixed(1)} / ${rest.toFixed(1)}   (of ${(os.cpus().length * r.seconds).toFixed(0)})`,
    );
    for (const failure of r.failed) console.log(`   FAILED ${failure}`);
  }
  // Pooled: all the transcriptions with N workers over all their seconds.
  const perMinute = (workers: number) => {
    const runs = rates.filter((r) => r.workers === workers);
    return (60 * runs.reduce((n, r) => n + r.completed, 0)) / runs.reduce((t, r) => t + r.seconds, 0);
  };
  // Per round: per minute with 2 (workers, or processes of the pipeline alone) over per minute with 1.
  const ratioByRound = <R extends { round: number; perMinute: number }>(results: R[], count: (r: R) => number) =>
    Array.from({ length: WORKER_ROUNDS }, (_, i) => {
      const [one, two] = [1, 2].map((n) => results.find((r) => r.round === i + 1 && count(r) === n)!);
      return two!.perMinute / one!.perMinute;
    });
  const byRound = ratioByRound(rates, (r) => r.workers);
  console.log(
    `${pad('2 workers / 1 worker, median of the rounds', 53)}${median(byRound).toFixed(2)} x   (target >= 1.7 x; by round: ${byRound.map((r) => r.toFixed(2)).join(', ')})`,
  );
  const aloneByRound = ratioByRound(alone, (r) => r.processes);
  console.log(
    `${pad('the pipeline alone, 2 processes / 1, median', 53)}${median(aloneByRound).toFixed(2)} x   (how far two transcriptions side by side scale here; by round: ${aloneByRound.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `${pad('workers / the pipeline alone, median of the rounds', 53)}${pct(median(byRound.map((r, i) => r / aloneByRound[i]!)), 1)}`,
  );
  console.log(
    `${pad('2 workers / 1 worker, pooled', 53)}${(perMinute(2) / perMinute(1)).toFixed(2)} x   (${perMinute(1).toFixed(2)} and ${perMinute(2).toFixed(2)} per minute over ${WORKER_ROUNDS} round${WORKER_ROUNDS > 1 ? 's' : ''})`,
  );
  console.log(
    "The pipeline alone: the workers' pipeline and engine on local files (bench/pipeline-alone.ts), with no queue, database, storage",
  );
  console.log(
    'or HTTP, one process then two at once, in each round beside the workers: two transcriptions side by side scale only as far as',
  );
  console.log(
    "this machine's cores and memory bandwidth let them (two processes streaming 64 MiB measured 1.06-1.39 x one here, a hash 1.95-2.0 x).",
  );
  console.log(
    'The api process, PostgreSQL, s3rver and this bench (which polls the list every 100 ms) share the same cores;',
  );
  console.log(
    '"rest of the machine" is CPU other programs used meanwhile (on a shared machine, other people\'s work): when it is large,',
  );
  console.log(
    'the wall-clock ratio measures the neighbours more than the workers; worker CPU s / job shows whether a second worker costs more per job.\n',
  );
}
if (lists.length > 0) {
  const cores = lists.every((l) => l.pinned)
    ? 'autocannon on core 0, the servers on the others'
    : 'autocannon shares the cores with the servers';
  console.log(
    `GET /api/v1/transcriptions with ${ROWS.toLocaleString('en')} stored transcriptions: ${PROCESSES} processes of each server, each warmed up for ${WARMUP_S} s,`,
  );
  console.log(`then ${DURATION_S} one-second turns each, alternating (${CONNECTIONS} connections; ${cores})`);
  console.log(
    `${pad('backend', 18)}${pad('per page', 10)}${pad('page KiB', 10)}${pad('list req/s', 12)}${pad('p50/p99 ms', 12)}${pad('static req/s', 14)}${pad('bare req/s', 12)}${pad('list/static', 13)}${pad('list/bare', 11)}${pad('CPU µs/req list/static/bare', 29)}${pad('list/static by CPU', 20)}errors`,
  );
  for (const l of lists) {
    const cpu = [l.list, l.staticPage, l.bare].map((r) => r.cpuUsPerRequest!);
    console.log(
      `${pad(l.backend, 18)}${pad(String(l.items), 10)}${pad((l.pageBytes / 1024).toFixed(1), 10)}${pad(l.list.rps.toFixed(0), 12)}${pad(`${l.list.p50}/${l.list.p99}`, 12)}` +
        `${pad(l.staticPage.rps.toFixed(0), 14)}${pad(l.bare.rps.toFixed(0), 12)}${pad(pct(l.list.rps, l.staticPage.rps), 13)}${pad(pct(l.list.rps, l.bare.rps), 11)}` +
        `${pad(cpu.map((c) => c.toFixed(0)).join(' / '), 29)}${pad(pct(cpu[1]!, cpu[0]!), 20)}${l.list.errors + l.staticPage.errors + l.bare.errors}`,
    );
  }
  for (const l of lists) {
    const paired = pairedRatio(l.list, l.staticPage);
    console.log(
      `${pad(`${l.backend}: list / static, median of ${paired.pairs} paired turns`, 66)}${pct(paired.rps, 1)} by requests/s, ${paired.cpu === null ? 'no CPU figure' : `${pct(paired.cpu, 1)} by CPU`}   (target >= 80 %)`,
    );
  }
  console.log(
    "static: the same framework (Fastify) sending a constant body of the page's size, the ceiling for that page (target: list >= 80 % of it);",
  );
  console.log('bare: the same framework answering {"ok":true}.');
  console.log(
    'paired turns: each turn of the list beside the static turn next to it in time; the median of those ratios keeps the',
  );
  console.log(
    "machine's swings (2-3x within minutes on a shared host) out of the ratio, where the totals above weigh whichever server a swing hit.",
  );
  console.log(
    'CPU µs/req: CPU time (user + system) the serving processes spent per request during their turns; list/static by CPU is',
  );
  console.log(
    "static µs / list µs, the same ratio measured in what the machine's swings move least (a process waiting for a core spends none).",
  );
}
