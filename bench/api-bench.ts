// npm run bench:api — prints, from one run:
//  1. requests/s and p99 latency of GET /api/v1/transcriptions with 10,000 stored transcriptions,
//     next to a bare handler on the same framework (Fastify), and the ratio;
//  2. throughput and server peak-RSS growth of a 1 GiB upload through audio_upload_url, next to a plain
//     file copy on the same disk, and the ratio.
// The server runs as its own process (the real CLI), so the load generator does not share its CPU thread.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import {
  CLI,
  compareLoads,
  CONNECTIONS,
  DURATION_S,
  memoryKiB,
  numberSetting,
  probePage,
  seedTranscriptions,
  startCeilingServer,
  startProcess,
  stop,
} from './http-load.js';

const run = promisify(execFile);
const UPLOAD_BYTES = numberSetting('BENCH_UPLOAD_BYTES', 1024 ** 3);

async function listBenchmark() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-'));
  const key = await seedTranscriptions(dataDir, 10_000);
  const server = await startProcess([CLI, 'serve', '--port', '0', '--data-dir', dataDir]);
  const { pageBytes, items } = await probePage(`${server.url}/api/v1/transcriptions`, { 'x-api-key': key });
  const bare = await startCeilingServer(pageBytes);
  try {
    const {
      results: [list, baseline, staticPage],
    } = await compareLoads([
      { url: `${server.url}/api/v1/transcriptions`, headers: { 'x-api-key': key }, pid: server.child.pid! },
      { url: `${bare.url}/bare`, pid: bare.child.pid! },
      { url: `${bare.url}/static-page`, pid: bare.child.pid! },
    ]);
    return { items, pageBytes, list, baseline, staticPage };
  } finally {
    await stop(server.child);
    await stop(bare.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function uploadBenchmark() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-'));
  const scratch = path.join(dataDir, 'scratch');
  fs.mkdirSync(scratch);
  const source = path.join(scratch, 'big.bin');
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24;
  await pipeline(
    Readable.from(
      (function* () {
        for (let written = 0; written < UPLOAD_BYTES; written += chunk.length) yield chunk;
      })(),
    ),
    fs.createWriteStream(source),
  );
  const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;
  await run('sync');

  let t0 = process.hrtime.bigint();
  await run('cp', [source, path.join(scratch, 'copy.bin')]);
  await run('sync');
  const copySeconds = seconds(t0);
  fs.rmSync(path.join(scratch, 'copy.bin'));

  const { stdout } = await run(process.execPath, [
    CLI,
    'keys',
    'create',
    '--data-dir',
    dataDir,
    '--team',
    'bench',
    '--user',
    'bench',
  ]);
  const key = stdout.trim().split('\n').at(-1)!;
  const server = await startProcess([CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
    KIKITORI_MAX_UPLOAD_BYTES: String(2 * UPLOAD_BYTES),
  });
  try {
    const pid = server.child.pid!;
    const ticket = (await (
      await fetch(`${server.url}/api/v1/transcriptions/upload`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'big.wav' }),
      })
    ).json()) as { audio_upload_url: string };
    const rssBefore = memoryKiB(pid, 'VmRSS');
    t0 = process.hrtime.bigint();
    // node:http, as the desktop app sends uploads: fetch (undici) buffers a streamed request body.
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request(
        ticket.audio_upload_url,
        { method: 'PUT', headers: { 'content-length': String(UPLOAD_BYTES) } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      pipeline(fs.createReadStream(source, { highWaterMark: 1024 * 1024 }), request).catch(reject);
    });
    if (status !== 200) throw new Error(`upload failed: ${status}`);
    await run('sync');
    const uploadSeconds = seconds(t0);
    const peak = memoryKiB(pid, 'VmHWM');
    return { copySeconds, uploadSeconds, rssGrowthMiB: (peak - rssBefore) / 1024, rssBeforeMiB: rssBefore / 1024 };
  } finally {
    await stop(server.child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const pad = (s: string, n: number) => s.padEnd(n);
const { items, pageBytes, list, baseline, staticPage } = await listBenchmark();
const upload = await uploadBenchmark();
const gib = UPLOAD_BYTES / 1024 ** 3;
const mibps = (s: number) => (UPLOAD_BYTES / 1024 ** 2 / s).toFixed(0);

console.log(
  `\nkikitori-server API benchmark (${os.cpus().length} cores, ${CONNECTIONS} connections, ${DURATION_S} s per target in one-second turns)\n`,
);
console.log(`${pad('measure', 58)}value`);
console.log(`${pad(`GET /api/v1/transcriptions (10,000 stored, ${items} per page) req/s`, 58)}${list.rps.toFixed(0)}`);
console.log(
  `${pad('GET /api/v1/transcriptions p50 / p99 latency (ms)', 58)}${list.p50} / ${list.p99}   (target p99 < 20)`,
);
console.log(`${pad('bare Fastify handler req/s', 58)}${baseline.rps.toFixed(0)}`);
console.log(
  `${pad('list / bare throughput ratio', 58)}${((100 * list.rps) / baseline.rps).toFixed(1)} %   (target >= 30 %)`,
);
console.log(
  `${pad(`same framework, static ${(pageBytes / 1024).toFixed(0)} KiB body (a page's size) req/s`, 58)}${staticPage.rps.toFixed(0)}   (${((100 * staticPage.rps) / baseline.rps).toFixed(1)} % of bare: the ceiling for this page size)`,
);
console.log(`${pad('errors or non-2xx during load', 58)}${list.errors + baseline.errors + staticPage.errors}`);
console.log(`${pad(`${gib.toFixed(2)} GiB plain file copy (cp + sync) MiB/s`, 58)}${mibps(upload.copySeconds)}`);
console.log(
  `${pad(`${gib.toFixed(2)} GiB upload via audio_upload_url (+ sync) MiB/s`, 58)}${mibps(upload.uploadSeconds)}`,
);
console.log(
  `${pad('upload / copy speed ratio', 58)}${((100 * upload.copySeconds) / upload.uploadSeconds).toFixed(1)} %   (target >= 50 %)`,
);
console.log(
  `${pad('server peak RSS growth during upload (MiB)', 58)}${upload.rssGrowthMiB.toFixed(1)}   (target < 100; RSS before ${upload.rssBeforeMiB.toFixed(0)} MiB)`,
);
