// npm run bench:live — live transcription (GET /v1/realtime, decision 0063) measured over real WebSockets
// against the built server (the CLI), with pocketsphinx and the server's own voice activity detection:
//  1. accuracy: the WER of the live transcript (its completed turns, in order) and of the batch engine on the
//     same audio, against the reference, side by side: real read speech (pocketsphinx-testdata's LibriVox
//     utterances and goforward) and 20 sentences read by festival, each set streamed as one session with
//     1.5 s of silence between utterances;
//  2. latency, per turn: from the start of speech (as sent) to its first delta, from the end of speech to
//     speech_stopped (mostly the VAD's silence_duration_ms), and from the end of speech to the completed
//     transcript; p50 and p95;
//  3. the same latencies with SESSIONS sessions at once (the server's default limit), each streaming the
//     festival set, to show whether live text keeps up on this machine;
//  4. the share of turns whose first words were shown while the turn was still spoken, the server's CPU per
//     second of streamed audio (cores one stream takes), and how many streams keep up at once: real speech
//     streamed by 2, 4, 6, 8... sessions until one is refused for a backlog or the p95 of end of speech ->
//     final text passes KEEP_UP_SECONDS (BENCH_LIVE_MAX_STREAMS, default 12).
// Audio is sent in 100 ms appends at real time (BENCH_LIVE_PACE=2 sends twice as fast, which makes the
// latencies meaningless but the accuracy figures quicker). BENCH_LIVE_SESSIONS sets part 3's count (0 skips);
// BENCH_LIVE_MIN_STREAMS is where part 4 starts counting (default 2). BENCH_LIVE_SERVER_ROOT measures the built
// server of another checkout (its bin/ and dist/), so two builds can be compared back to back on the same
// audio; the machine's load average is printed with the figures, since other work on it moves them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { PocketsphinxEngine } from '../src-server/engines/speech/pocketsphinx-engine.js';
import { editDistance } from '../src-shared/edit-distance.js';
import type { LiveServerEvent } from '../src-shared/api/realtime.js';
import { createApiKey, startServer, stopServer } from '../test/e2e/host/server-process.js';
import { FESTIVAL_SENTENCES, festivalWav, pcmOf, testdataUtterances } from './speech-corpus.js';
import { median, normalizeWords, percentile } from './stats.js';

const run = promisify(execFile);
const ROOT = path.resolve(
  process.env.BENCH_LIVE_SERVER_ROOT ?? path.resolve(fileURLToPath(import.meta.url), '../../..'),
);
const RATE = 16000;
const CHUNK_MS = 100;
const GAP_SECONDS = 1.5;
const PACE = Number(process.env.BENCH_LIVE_PACE ?? 1);
const SESSIONS = Number(process.env.BENCH_LIVE_SESSIONS ?? 4);
const MAX_STREAMS = Number(process.env.BENCH_LIVE_MAX_STREAMS ?? 12);
const MIN_STREAMS = Number(process.env.BENCH_LIVE_MIN_STREAMS ?? 2);
/** Final text later than this after the end of speech (p95) no longer counts as keeping up. */
const KEEP_UP_SECONDS = 2;

interface Stream {
  name: string;
  /** PCM16 mono at 16 kHz: every utterance followed by GAP_SECONDS of silence. */
  pcm: Buffer;
  reference: string;
  /** Where each utterance's speech starts and ends in the stream (ms). */
  spans: { start: number; end: number }[];
}

interface TurnTimes {
  /** Audio time of speech start and end, as the server's VAD reported them (ms). */
  audioStart?: number;
  audioEnd?: number;
  /** Wall-clock arrival of the events (ms, performance.now()). */
  started?: number;
  firstDelta?: number;
  stopped?: number;
  completed?: number;
}

interface SessionResult {
  transcript: string;
  turns: TurnTimes[];
  /** When audio time 0 was sent. */
  origin: number;
  spans: Stream['spans'];
  failed: number;
  /** Appends refused because the session fell behind (audio_backlog). */
  backlog: number;
}

async function buildStream(name: string, wavs: string[], texts: string[]): Promise<Stream> {
  const gap = Buffer.alloc(Math.round(GAP_SECONDS * RATE) * 2);
  const parts: Buffer[] = [gap];
  const spans: Stream['spans'] = [];
  const msOf = (bytes: number) => (bytes / 2 / RATE) * 1000;
  let at = gap.length;
  for (const wav of wavs) {
    const speech = fs.readFileSync(await pcmOf(wav));
    spans.push({ start: msOf(at), end: msOf(at + speech.length) });
    parts.push(speech, gap);
    at += speech.length + gap.length;
  }
  return { name, pcm: Buffer.concat(parts), reference: texts.join(' '), spans };
}

const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

/** Streams one session at PACE and collects its turns; resolves when every turn has an answer. */
async function liveSession(url: string, key: string, stream: Stream): Promise<SessionResult> {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/realtime?intent=transcription`, {
    headers: { 'x-api-key': key },
  });
  const turns = new Map<string, TurnTimes>();
  const texts = new Map<string, string>();
  const order: string[] = [];
  let failed = 0;
  let backlog = 0;
  let updated: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (updated = resolve));
  const turn = (id: string) => {
    let times = turns.get(id);
    if (!times) {
      times = {};
      turns.set(id, times);
      order.push(id);
    }
    return times;
  };
  socket.on('message', (data) => {
    const now = performance.now();
    const event = JSON.parse((data as Buffer).toString('utf8')) as LiveServerEvent;
    switch (event.type) {
      case 'session.updated':
        return updated();
      case 'input_audio_buffer.speech_started':
        Object.assign(turn(event.item_id), { audioStart: event.audio_start_ms, started: now });
        return;
      case 'input_audio_buffer.speech_stopped':
        Object.assign(turn(event.item_id), { audioEnd: event.audio_end_ms, stopped: now });
        return;
      case 'conversation.item.input_audio_transcription.delta':
        turn(event.item_id).firstDelta ??= now;
        return;
      case 'conversation.item.input_audio_transcription.completed':
        turn(event.item_id).completed = now;
        texts.set(event.item_id, event.transcript);
        return;
      case 'conversation.item.input_audio_transcription.failed':
        failed++;
        turn(event.item_id).completed = now;
        return;
      case 'error':
        if (event.error.code === 'audio_backlog') backlog++;
        else throw new Error(`${stream.name}: ${event.error.message}`);
        return;
      default:
        return;
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({
      type: 'session.update',
      session: {
        type: 'transcription',
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: RATE },
            transcription: { language: 'en' },
            turn_detection: { type: 'server_vad' },
          },
        },
      },
    }),
  );
  await ready;
  const bytes = (RATE * CHUNK_MS * 2) / 1000;
  const origin = performance.now();
  for (let at = 0, i = 0; at < stream.pcm.length; at += bytes, i++) {
    await sleepUntil(origin + (i * CHUNK_MS) / PACE);
    socket.send(
      JSON.stringify({
        type: 'input_audio_buffer.append',
        audio: stream.pcm.subarray(at, at + bytes).toString('base64'),
      }),
    );
  }
  // Every turn the VAD opened gets its answer; the stream ends in silence, so the last one closes too.
  const deadline = performance.now() + 60_000;
  while ([...turns.values()].some((t) => t.completed === undefined) && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  socket.close(1000);
  return {
    transcript: order.map((id) => texts.get(id) ?? '').join(' '),
    turns: order.map((id) => turns.get(id)!),
    origin,
    spans: stream.spans,
    failed,
    backlog,
  };
}

async function batchTranscript(engine: PocketsphinxEngine, stream: Stream, dir: string): Promise<string> {
  const file = path.join(dir, `${stream.name}.pcm`);
  fs.writeFileSync(file, stream.pcm);
  const result = await engine.recognize({
    pcmPath: file,
    language: 'en',
    vocabulary: [],
    signal: new AbortController().signal,
  });
  return result.segments.flatMap((s) => s.words.map((w) => w.word)).join(' ');
}

function wer(reference: string, hypothesis: string): number {
  return errorsOf(reference, hypothesis) / normalizeWords(reference).length;
}

function errorsOf(reference: string, hypothesis: string): number {
  return editDistance(normalizeWords(reference), normalizeWords(hypothesis));
}

interface Latencies {
  firstDelta: number[];
  stopped: number[];
  completed: number[];
  /** From speech_stopped to completed: the work left at the end of a turn once the VAD has placed its end. */
  finishing: number[];
}

/**
 * Latencies from the speech as it was sent (the utterances' known spans), not from the VAD's own times: the
 * end-of-speech figures include the VAD's 500 ms of silence, which is what a user waits for.
 */
function latenciesOf(results: SessionResult[]): Latencies {
  const out: Latencies = { firstDelta: [], stopped: [], completed: [], finishing: [] };
  for (const { turns, origin, spans } of results) {
    const sentAt = (audioMs: number) => origin + audioMs / PACE;
    for (const t of turns) {
      if (t.audioStart === undefined || t.audioEnd === undefined) continue;
      // The first utterance still speaking when the turn opened, and the last one begun before it closed.
      const first = spans.find((u) => u.end > t.audioStart!);
      const last = [...spans].reverse().find((u) => u.start < t.audioEnd!);
      if (!first || !last) continue;
      if (t.firstDelta !== undefined) out.firstDelta.push(t.firstDelta - sentAt(Math.max(first.start, t.audioStart)));
      if (t.stopped !== undefined) out.stopped.push(t.stopped - sentAt(last.end));
      if (t.completed !== undefined) out.completed.push(t.completed - sentAt(last.end));
      if (t.completed !== undefined && t.stopped !== undefined) out.finishing.push(t.completed - t.stopped);
    }
  }
  return out;
}

/** Turns whose first delta arrived before the VAD said the speech had stopped. */
function partialWhileSpeaking(results: SessionResult[]): { shown: number; turns: number } {
  const turns = results.flatMap((r) => r.turns).filter((t) => t.stopped !== undefined);
  return {
    shown: turns.filter((t) => t.firstDelta !== undefined && t.firstDelta < t.stopped!).length,
    turns: turns.length,
  };
}

/** CPU seconds a process has used so far (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat; here 0-based after the command name: 11 and 12.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const loadOf = (load: number[]) => load.map((x) => x.toFixed(1)).join(', ');
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function latencyRows(label: string, l: Latencies): string[][] {
  const row = (what: string, values: number[]) => [
    `${label}: ${what}`,
    values.length ? seconds(percentile(values, 50)) : '-',
    values.length ? seconds(percentile(values, 95)) : '-',
    String(values.length),
  ];
  return [
    row('start of speech -> first delta', l.firstDelta),
    row('end of speech -> speech_stopped', l.stopped),
    row('end of speech -> completed', l.completed),
    row('speech_stopped -> completed', l.finishing),
  ];
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

async function main(): Promise<void> {
  const loadBefore = os.loadavg();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-live-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  const { librivox, goforward } = await testdataUtterances();
  const real = [...librivox, goforward];
  const streams = [
    await buildStream(
      'real read speech',
      real.map((u) => u.wav),
      real.map((u) => u.text),
    ),
    await buildStream('festival', await Promise.all(FESTIVAL_SENTENCES.map(festivalWav)), FESTIVAL_SENTENCES),
  ];
  // Two keys, and limits raised so that parts 3 and 4 are refused by nothing but the machine's speed.
  const keys = [await createApiKey(ROOT, dataDir), await createApiKey(ROOT, dataDir)];
  const most = Math.max(4, SESSIONS, MAX_STREAMS);
  const server = await startServer(ROOT, dataDir, {
    KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
    KIKITORI_LIVE_MAX_SESSIONS: String(most),
    KIKITORI_LIVE_MAX_SESSIONS_PER_KEY: String(Math.ceil(most / 2)),
    KIKITORI_RATE_LIMIT_PER_KEY: '0',
    // A session that fell behind is still answering after its audio ended: the bench waits for it (60 s).
    KIKITORI_LIVE_IDLE_TIMEOUT: '120',
  });
  const engine = new PocketsphinxEngine({ vadLog: () => {} });
  const accuracy: string[][] = [];
  const latency: string[][] = [];
  const capacity: string[][] = [];
  const pid = server.child.pid!;
  try {
    const single: SessionResult[] = [];
    const pooled = { words: 0, live: 0, batch: 0 };
    const cpuBefore = cpuSeconds(pid);
    for (const stream of streams) {
      process.stderr.write(`bench:live: ${stream.name} (${(stream.pcm.length / 2 / RATE).toFixed(0)} s)...\n`);
      const live = await liveSession(server.url, keys[0]!, stream);
      single.push(live);
      const batch = await batchTranscript(engine, stream, dir);
      if (process.env.BENCH_LIVE_DETAILS)
        process.stderr.write(
          `  REF:   ${normalizeWords(stream.reference).join(' ')}\n  LIVE:  ${normalizeWords(live.transcript).join(' ')}\n  BATCH: ${normalizeWords(batch).join(' ')}\n`,
        );
      pooled.words += normalizeWords(stream.reference).length;
      pooled.live += errorsOf(stream.reference, live.transcript);
      pooled.batch += errorsOf(stream.reference, batch);
      accuracy.push([
        stream.name,
        `${normalizeWords(stream.reference).length}`,
        pct(wer(stream.reference, live.transcript)),
        pct(wer(stream.reference, batch)),
        `${live.turns.length}${live.failed ? ` (${live.failed} failed)` : ''}`,
      ]);
    }
    // The issue's target (within 3 points) is read on this row: the real set alone is 75 words, 1.3 points each.
    accuracy.push([
      'all of the above, pooled',
      `${pooled.words}`,
      pct(pooled.live / pooled.words),
      pct(pooled.batch / pooled.words),
      '-',
    ]);
    const streamedSeconds = streams.reduce((n, st) => n + st.pcm.length / 2 / RATE, 0);
    // The server runs nothing but these sessions meanwhile (the batch transcripts are made in this process).
    const perStream = (cpuSeconds(pid) - cpuBefore) / streamedSeconds;
    latency.push(...latencyRows('1 session', latenciesOf(single)));
    const partial = partialWhileSpeaking(single);
    capacity.push([
      'turns with words shown while still spoken (1 session)',
      `${partial.shown}/${partial.turns} (${pct(partial.shown / Math.max(1, partial.turns))})`,
      '>= 80 %',
    ]);
    capacity.push(['server CPU per second of live audio (1 session)', `${perStream.toFixed(3)} core-seconds`, '-']);
    if (SESSIONS > 0) {
      process.stderr.write(`bench:live: ${SESSIONS} sessions at once...\n`);
      const many = await Promise.all(
        Array.from({ length: SESSIONS }, (_, i) => liveSession(server.url, keys[i % 2]!, streams[1]!)),
      );
      latency.push(...latencyRows(`${SESSIONS} sessions`, latenciesOf(many)));
      const manyPartial = partialWhileSpeaking(many);
      capacity.push([
        `turns with words shown while still spoken (${SESSIONS} sessions)`,
        `${manyPartial.shown}/${manyPartial.turns} (${pct(manyPartial.shown / Math.max(1, manyPartial.turns))})`,
        '>= 80 %',
      ]);
      const wers = many.map((m) => wer(streams[1]!.reference, m.transcript));
      accuracy.push([
        `festival, ${SESSIONS} sessions at once (median)`,
        `${normalizeWords(streams[1]!.reference).length}`,
        pct(median(wers)),
        '-',
        `${many.reduce((n, m) => n + m.turns.length, 0)}`,
      ]);
    }
    if (MAX_STREAMS > 0) {
      let kept = 0;
      for (let n = MIN_STREAMS; n <= MAX_STREAMS; n += 2) {
        process.stderr.write(`bench:live: ${n} real-speech streams at once...\n`);
        const runs = await Promise.all(
          Array.from({ length: n }, (_, i) => liveSession(server.url, keys[i % keys.length]!, streams[0]!)),
        );
        const p95 = percentile(latenciesOf(runs).completed, 95) / 1000;
        const refused = runs.reduce((sum, r) => sum + r.backlog, 0);
        capacity.push([
          `${n} streams at once: end of speech -> final text p95; appends refused`,
          `${p95.toFixed(2)} s; ${refused}`,
          '-',
        ]);
        if (refused > 0 || !(p95 <= KEEP_UP_SECONDS)) break;
        kept = n;
      }
      capacity.push([
        `streams that keep up at once (final text p95 <= ${KEEP_UP_SECONDS} s, nothing refused)`,
        `${kept}${kept === MAX_STREAMS ? '+' : ''}`,
        '>= 4',
      ]);
    }
  } finally {
    await stopServer(server.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const { stdout: cpu } = await run('nproc');
  console.log(
    `\nbench:live — pocketsphinx over /v1/realtime, server VAD (silence 500 ms), ${CHUNK_MS} ms appends at ${PACE}x real time, ${cpu.trim()} cores\n` +
      `server: ${ROOT}; load average (1, 5, 15 min) before ${loadOf(loadBefore)}, after ${loadOf(os.loadavg())}\n`,
  );
  printTable(['set', 'words', 'live WER', 'batch WER (same audio)', 'turns'], accuracy);
  console.log('');
  printTable(['latency per turn', 'p50', 'p95', 'turns'], latency);
  console.log('');
  printTable(['measure', 'result', 'target'], capacity);
}

await main();
