// Phase 4: slow-loris clients and a burst of concurrent connections while a transcription runs, against
// a server with the default rate limits and timeouts. Meanwhile a well-behaved client asks GET /healthz
// and GET /api/v1/transcriptions in turn, one request at a time, and the drill prints their p50/p99.
// The table's pass/fail compares p99 with 100 ms (a figure: nothing in `npm test` asserts timing).
import { fork } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { concatWithSilence, synthesizeSpeech } from '../../test/support/audio-fixtures.js';
import type { GeneratorOptions, GeneratorReport } from './load-generator.js';
import {
  api,
  apiKey,
  pathOf,
  send,
  sizeSetting,
  sleep,
  startDrillServer,
  tempDir,
  type CheckResult,
} from './support.js';
import { percentile } from '../stats.js';

const P99_TARGET_MS = 100;

const SENTENCES = [
  'The committee will review the budget before the end of the quarter.',
  'Please send the revised schedule to everyone on the project.',
  'We should test the backup system again next week.',
  'The train to the airport leaves every twenty minutes.',
];

async function longRecording(minutes: number): Promise<Buffer> {
  const parts = await Promise.all(SENTENCES.map((s) => synthesizeSpeech(s)));
  const once = await concatWithSilence(parts, 1);
  const seconds = (fs.statSync(once).size - 44) / 32_000;
  const repeats = Math.max(1, Math.ceil((minutes * 60) / seconds));
  return fs.readFileSync(
    await concatWithSilence(
      Array.from({ length: repeats }, () => once),
      1,
    ),
  );
}

interface Measured {
  latencies: { healthz: number[]; list: number[] };
  other: Record<string, number>;
  stages: Set<string>;
}

/** The well-behaved client: one request at a time, every 50 ms, on its own keep-alive connection. */
async function measure(base: string, key: string, id: string, seconds: number): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const out: Measured = { latencies: { healthz: [], list: [] }, other: {}, stages: new Set() };
  const until = Date.now() + seconds * 1000;
  for (let i = 0; Date.now() < until; i++) {
    const which = i % 2 === 0 ? 'healthz' : 'list';
    const started = process.hrtime.bigint();
    try {
      const response = await send(
        base,
        which === 'healthz'
          ? { method: 'GET', path: '/healthz' }
          : { method: 'GET', path: '/api/v1/transcriptions', headers: { 'x-api-key': key } },
        agent,
      );
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (response.status === 200) out.latencies[which].push(ms);
      else out.other[`${which} ${response.status}`] = (out.other[`${which} ${response.status}`] ?? 0) + 1;
      if (which === 'list' && response.status === 200) {
        const mine = (
          JSON.parse(response.body.toString()) as Array<{
            transcription_id: string;
            stage: string | null;
            status: string;
          }>
        ).find((t) => t.transcription_id === id);
        if (mine) out.stages.add(mine.stage ?? mine.status);
      }
    } catch (error) {
      out.other[`${which} ${(error as Error).message}`] = (out.other[`${which} ${(error as Error).message}`] ?? 0) + 1;
    }
    await sleep(50);
  }
  agent.destroy();
  return out;
}

export async function loadPhase(): Promise<CheckResult[]> {
  const seconds = sizeSetting('DRILL_LOAD_SECONDS', 35, 10);
  const options = {
    loris: sizeSetting('DRILL_LORIS', 200, 50),
    burst: sizeSetting('DRILL_BURST', 1000, 200),
  };
  const dataDir = tempDir('kikitori-drill-load-');
  const measureKey = await apiKey(dataDir);
  const burstKey = await apiKey(dataDir);
  // The default limits and timeouts: what a deployment gets.
  const server = await startDrillServer(dataDir);
  try {
    // A transcription that runs through the whole phase.
    const audio = await longRecording(Math.max(2, seconds / 10));
    const ticket = await api(server.url, measureKey, 'POST', '/api/v1/transcriptions/upload', {
      filename: 'long.wav',
      language: 'en',
    });
    const put = await send(server.url, { method: 'PUT', path: pathOf(ticket.json.audio_upload_url), body: audio });
    if (put.status !== 200) throw new Error(`upload failed: ${put.status}`);
    const id = ticket.json.transcription_id as string;
    await api(server.url, measureKey, 'POST', `/api/v1/transcriptions/${id}/transcribe`);
    for (let i = 0; i < 100; i++) {
      const record = await api(server.url, measureKey, 'GET', `/api/v1/transcriptions/${id}`);
      if (record.json?.stage && record.json.stage !== 'queued') break;
      await sleep(100);
    }

    // The same client with the transcription running and nobody else, for comparison.
    const quiet = await measure(server.url, measureKey, id, Math.min(8, Math.max(3, seconds / 4)));

    const generatorOptions: GeneratorOptions = {
      url: server.url,
      key: burstKey,
      loris: options.loris,
      lorisByteEveryMs: 1000,
      lorisSeconds: seconds,
      burst: options.burst,
      burstAfterMs: 2000,
    };
    const generator = fork(path.join(import.meta.dirname, 'load-generator.js'), [JSON.stringify(generatorOptions)], {
      stdio: 'inherit',
    });
    const report = new Promise<GeneratorReport>((resolve, reject) => {
      generator.once('message', (message) => resolve(message as GeneratorReport));
      generator.once('exit', (code) => reject(new Error(`the load generator exited with ${code} before it reported`)));
    });

    const { latencies, other, stages } = await measure(server.url, measureKey, id, seconds);
    const generated = await report;
    const record = await api(server.url, measureKey, 'GET', `/api/v1/transcriptions/${id}`);

    const row = (name: 'healthz' | 'list', label: string): CheckResult => {
      const values = latencies[name];
      const p50 = percentile(values, 50);
      const p99 = percentile(values, 99);
      const failures = Object.entries(other).filter(([k]) => k.startsWith(name));
      const quietP99 = percentile(quiet.latencies[name], 99);
      return {
        check: `overload: ${label} latency`,
        runs: `${values.length} requests during ${options.loris} slow-loris + ${options.burst} burst`,
        result: `${failures.length ? `not answered 200: ${failures.map(([k, n]) => `${k}×${n}`).join(', ')}` : 'all 200'}; p99 ${quietP99.toFixed(1)} ms without the attack`,
        figure: `p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (target < ${P99_TARGET_MS})`,
        pass: failures.length === 0 && p99 < P99_TARGET_MS,
      };
    };
    const fmt = (map: Record<string, number>) =>
      Object.entries(map)
        .map(([k, n]) => `${k}×${n}`)
        .join(', ') || 'none';
    const limited = Object.entries(generated.burstStatuses)
      .filter(([k]) => k.endsWith(' 429'))
      .reduce((n, [, c]) => n + c, 0);
    const fiveXx = Object.entries(generated.burstStatuses)
      .filter(([k]) => / 5\d\d$/.test(k))
      .reduce((n, [, c]) => n + c, 0);
    return [
      row('healthz', 'GET /healthz'),
      row('list', 'GET /api/v1/transcriptions'),
      {
        check: 'overload: the burst and the slow-loris clients',
        runs: `${options.burst} connections, ${options.loris} loris`,
        result: `burst: ${fmt(generated.burstStatuses)}; errors: ${fmt(generated.burstErrors)}`,
        figure: `${limited} answered 429 (rate limit per key)`,
        pass: fiveXx === 0 && Object.keys(generated.burstErrors).length === 0,
        notes: [
          `load: slow-loris connections: ${fmt(generated.loris)} (KIKITORI_HEADERS_TIMEOUT, 30 s by default, closes them with 408)`,
          `load: limits hit: ${limited} of the burst's list requests answered 429 (KIKITORI_RATE_LIMIT_PER_KEY, 600 a minute by default); /healthz is never limited`,
          `load: the transcription was ${[...stages].join(' → ')} during the phase, ${record.json?.status} at its end`,
        ],
      },
    ];
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
