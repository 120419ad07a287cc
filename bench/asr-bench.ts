// npm run bench:asr — the embedded speech stack (PocketsphinxEngine with its default VAD, and the
// embedded speaker separation) measured in one run, printed as one table:
//  1. WER on real speech: pocketsphinx-testdata's LibriVox utterances and goforward.raw with their
//     reference transcripts (and, for information, the "cards" recordings);
//  2. WER on 20 sentences read by festival's HTS voice (cmu_us_slt_arctic_hts);
//  3. recall of 10 invented names in festival sentences, without and with a dictionary
//     (VocabularyWord with readings);
//  4. real-time factor and peak RSS on a 2-hour file (real speech, pauses and long silences), in a
//     child process so the figure is the engine's alone;
//  5. diarization error (DER, 0.25 s collar) on a conversation of three real speakers, with the
//     number of speakers given and found automatically.
//  6. short-clip latency: p50 and p95 of 20 clips of 3-5 s from POST .../transcribe to COMPLETED, over
//     real HTTP against the built server (the CLI) with pocketsphinx, with the server's stage timings;
//  7. whisper.cpp speed: real-time factor of models with the real shapes of tiny, base and small
//     (random weights, fixed decode length) on real speech.
//  8. the language check (decision 0070): English flagged as another language (false alarms) and
//     speech in twelve other languages flagged, on a tuning part and a held-out part
//     (bench/language-mismatch.ts).
//  9. word confidence (decision 0086): how often an underlined word is wrong and how many wrong words the
//     underline catches, before and after calibration, on a tuning part and a held-out part
//     (bench/confidence.ts).
// Environment: BENCH_LONG_SECONDS (default 7200; 0 skips part 4); BENCH_ONLY (see ONLY).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EmbeddedSpeakerSeparation } from '../src-server/engines/speakers/embedded-speaker-separation.js';
import { diarizationError } from '../src-server/engines/speakers/diarization-error.js';
import { PocketsphinxEngine } from '../src-server/engines/speech/pocketsphinx-engine.js';
import { WhisperEngine } from '../src-server/engines/speech/whisper-engine.js';
import { randomWhisperModel } from '../test/support/ggml-model.js';
import type { RecognizeResult, VocabularyWord } from '../src-server/engines/speech/speech-engine.js';
import {
  concatenate,
  conversation,
  durationOf,
  FESTIVAL_SENTENCES,
  festivalWav,
  longRecording,
  pcmOf,
  testdataUtterances,
} from './speech-corpus.js';
import { normalizeWords, percentile } from './stats.js';
import { editDistance } from '../src-shared/edit-distance.js';
import { createApiKey, startServer, stopServer } from '../test/e2e/host/server-process.js';
import { languageMismatchBench } from './language-mismatch.js';
import { confidenceBench } from './confidence.js';

const LONG_SECONDS = Number(process.env.BENCH_LONG_SECONDS ?? 7200);
/** BENCH_ONLY=latency,whisper (comma-separated parts: wer, names, diarization, long, latency, whisper, language, confidence); default all. */
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

/**
 * Invented names (in neither the CMU dictionary nor the language model), with readings: phonetic
 * respellings of how the voice says them (what a user would write for a name they know).
 */
const NAMES: (VocabularyWord & { sentence: string })[] = [
  { word: 'Zintrix', reading: 'zin tricks', sentence: 'I had a long meeting with Zintrix about the new budget.' },
  { word: 'Drovana', reading: 'drove anna', sentence: 'Please send the final report to Drovana before Friday.' },
  { word: 'Kelbrant', reading: 'kell brunt', sentence: 'The new office of Kelbrant opens next month in the city.' },
  { word: 'Vexolar', reading: 'vex oh ler', sentence: 'Our customers really like the Vexolar phone.' },
  { word: 'Talvenor', reading: 'tal vunner', sentence: 'We asked Talvenor to review the contract this week.' },
  { word: 'Norvatek', reading: 'nor vuh tech', sentence: 'The Norvatek team finished the project ahead of schedule.' },
  { word: 'Jaxomar', reading: 'jack summer', sentence: 'Tomorrow morning Jaxomar will call the customer.' },
  { word: 'Pelloran', reading: 'pell er in', sentence: 'The price of the Pelloran service went up again.' },
  { word: 'Trulimax', reading: 'true luh max', sentence: 'She bought a Trulimax printer for the whole team.' },
  { word: 'Brimstead', reading: 'brim stead', sentence: 'The next meeting with Brimstead is on Thursday.' },
];

// ---------------------------------------------------------------------------------------------
// Scoring

const transcript = (r: RecognizeResult) => r.segments.flatMap((s) => s.words.map((w) => w.word)).join(' ');

// ---------------------------------------------------------------------------------------------
// Parts

interface Row {
  measure: string;
  result: string;
  target: string;
  ok: boolean | null;
}

const signal = new AbortController().signal;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

async function werOn(
  engine: PocketsphinxEngine,
  items: { pcm: string; text: string }[],
): Promise<{ wer: number; words: number; details: string[] }> {
  let errors = 0;
  let words = 0;
  const details: string[] = [];
  for (const item of items) {
    const ref = normalizeWords(item.text);
    const hyp = normalizeWords(
      transcript(await engine.recognize({ pcmPath: item.pcm, language: 'en', vocabulary: [], signal })),
    );
    const e = editDistance(ref, hyp);
    errors += e;
    words += ref.length;
    details.push(`  ${e}/${ref.length}  REF: ${ref.join(' ')}\n        HYP: ${hyp.join(' ')}`);
  }
  return { wer: errors / words, words, details };
}

async function realSpeech(engine: PocketsphinxEngine, rows: Row[]): Promise<void> {
  const { librivox, goforward, cards } = await testdataUtterances();
  // The recordings as shipped (not trimmed): the VAD finds the speech.
  const asItems = (list: typeof librivox) =>
    Promise.all(list.map(async (u) => ({ pcm: await pcmOf(u.source), text: u.text })));
  const main = await werOn(engine, await asItems([...librivox, goforward]));
  if (process.env.BENCH_VERBOSE) console.error(main.details.join('\n'));
  rows.push({
    measure: `WER, real speech (testdata LibriVox x5 + goforward, ${main.words} words)`,
    result: pct(main.wer),
    target: '<= 22%',
    ok: main.wer <= 0.22,
  });
  const extra = await werOn(engine, await asItems(cards));
  rows.push({
    measure: `WER, real speech (testdata cards x5, ${extra.words} words; info)`,
    result: pct(extra.wer),
    target: '-',
    ok: null,
  });
}

async function festival(engine: PocketsphinxEngine, rows: Row[]): Promise<void> {
  const wavs = await Promise.all(FESTIVAL_SENTENCES.map(festivalWav));
  const file = await concatenate(
    wavs,
    wavs.slice(1).map((_, i) => [0.6, 1.2, 2.5][i % 3]!),
  );
  const result = await werOn(engine, [{ pcm: await pcmOf(file), text: FESTIVAL_SENTENCES.join(' ') }]);
  if (process.env.BENCH_VERBOSE) console.error(result.details.join('\n'));
  rows.push({
    measure: `WER, festival HTS voice (20 sentences, ${result.words} words)`,
    result: pct(result.wer),
    target: '<= 12%',
    ok: result.wer <= 0.12,
  });
}

async function inventedNames(engine: PocketsphinxEngine, rows: Row[]): Promise<void> {
  const wavs = await Promise.all(NAMES.map((n) => festivalWav(n.sentence)));
  const pcm = await pcmOf(
    await concatenate(
      wavs,
      wavs.slice(1).map(() => 1),
    ),
  );
  const recall = async (vocabulary: VocabularyWord[]) => {
    const hyp = normalizeWords(
      transcript(await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary, signal })),
    );
    if (process.env.BENCH_VERBOSE) console.error(`  names (${vocabulary.length} in dictionary): ${hyp.join(' ')}`);
    return NAMES.filter((n) => hyp.includes(n.word.toLowerCase())).length / NAMES.length;
  };
  const without = await recall([]);
  const withDictionary = await recall(NAMES.map(({ word, reading }) => ({ word, reading })));
  rows.push({
    measure: `Invented-name recall, no dictionary (${NAMES.length} names)`,
    result: pct(without),
    target: '~0%',
    ok: without <= 0.1,
  });
  rows.push({
    measure: `Invented-name recall, with dictionary (readings)`,
    result: pct(withDictionary),
    target: '>= 80%',
    ok: withDictionary >= 0.8,
  });
}

async function diarization(engine: PocketsphinxEngine, rows: Row[]): Promise<void> {
  const { librivox, goforward, cards, dhdExtra } = await testdataUtterances();
  const conv = await conversation({ librivox, cards, dhd: [goforward, ...dhdExtra] }, 75);
  const pcm = await pcmOf(conv.wav);
  const speech = await engine.vad.detect(pcm, { signal });
  const separation = new EmbeddedSpeakerSeparation();
  const describe = `${conv.duration.toFixed(0)} s, 3 real speakers, ${conv.reference.length} turns`;
  for (const [label, options] of [
    ['num_speakers=3', { numSpeakers: 3 }],
    ['automatic count', {}],
  ] as const) {
    const started = performance.now();
    const turns = await separation.separate(pcm, speech, { ...options, signal });
    const ms = performance.now() - started;
    const der = diarizationError(conv.reference, turns, { collar: 0.25 });
    const found = new Set(turns.map((t) => t.speaker)).size;
    rows.push({
      measure: `DER, ${label} (${describe}; found ${found}; ${ms.toFixed(0)} ms)`,
      result: `${pct(der.der)} (miss ${pct(der.missed / der.total)}, FA ${pct(der.falseAlarm / der.total)}, conf ${pct(der.confusion / der.total)})`,
      target: '< 15%' + (label === 'automatic count' ? ' (info)' : ''),
      ok: label === 'automatic count' ? null : der.der < 0.15,
    });
  }
}

async function longFile(rows: Row[]): Promise<void> {
  const { librivox, goforward, cards } = await testdataUtterances();
  const { pcm, duration } = await longRecording([...librivox, goforward, ...cards], LONG_SECONDS);
  // A child process: its peak RSS is the engine's, not this script's.
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, [script, '--decode-long', pcm], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`long-file decode failed (exit ${code})`);
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    seconds: number;
    vmHwmKiB: number;
    words: number;
    speaking: number;
    vad: string;
    segments: number;
  };
  const rtf = r.seconds / duration;
  const mb = r.vmHwmKiB / 1024;
  const hours = (duration / 3600).toFixed(2);
  rows.push({
    measure: `Real-time factor, ${hours} h file (VAD ${r.vad}, ${r.segments} segments, ${r.words} words)`,
    result: `${rtf.toFixed(3)} (${r.seconds.toFixed(0)} s)`,
    target: '<= 0.35',
    ok: rtf <= 0.35,
  });
  rows.push({
    measure: `Peak RSS (VmHWM), ${hours} h file`,
    result: `${mb.toFixed(0)} MB`,
    target: '< 400 MB',
    ok: mb < 400,
  });
  rows.push({
    measure: `Speaking duration, ${hours} h file (info)`,
    result: `${(r.speaking / 60).toFixed(1)} min of ${(duration / 60).toFixed(1)}`,
    target: '-',
    ok: null,
  });
}

/** Child-process mode: decode one file, print timing and peak memory as JSON. */
async function decodeLong(pcm: string): Promise<void> {
  const engine = new PocketsphinxEngine({ vadLog: () => {} });
  const started = performance.now();
  let last = 0;
  const result = await engine.recognize({
    pcmPath: pcm,
    language: 'en',
    vocabulary: [],
    signal,
    onProgress: (f) => {
      if (f - last >= 0.1) {
        last = f;
        process.stderr.write(
          `  long file: ${(100 * f).toFixed(0)}% after ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
        );
      }
    },
  });
  const seconds = (performance.now() - started) / 1000;
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const vmHwmKiB = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  const words = result.segments.reduce((n, s) => n + s.words.length, 0);
  console.log(
    JSON.stringify({
      seconds,
      vmHwmKiB,
      words,
      speaking: result.speakingDuration,
      vad: engine.vad.name,
      segments: result.segments.length,
    }),
  );
}

const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** `wav` with silence added on both sides so that it lasts at least `seconds` (3-5 s clips). */
async function padClip(
  wav: string,
  seconds: number,
  dir: string,
  index: number,
): Promise<{ file: string; duration: number }> {
  const duration = await durationOf(wav);
  const side = Math.max(0.25, (seconds - duration) / 2);
  const file = path.join(dir, `clip-${index}.wav`);
  await promisify(execFile)('sox', [wav, file, 'pad', side.toFixed(3), side.toFixed(3)]);
  return { file, duration: await durationOf(file) };
}

/**
 * Short-clip latency over real HTTP against the built server (the CLI, as users run it) with
 * pocketsphinx: 20 clips of 3-5 s, each uploaded first, then timed from POST .../transcribe to
 * COMPLETED (polled every 10 ms). The server's per-job stage timings (its "transcription timings"
 * log line) are averaged to show where the time goes.
 */
async function shortClipLatency(rows: Row[]): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-latency-'));
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  const clips: { file: string; duration: number }[] = [];
  for (const [i, sentence] of FESTIVAL_SENTENCES.entries())
    clips.push(await padClip(await festivalWav(sentence), 3.6, dir, i));
  const key = await createApiKey(ROOT, dataDir);
  // Polled quickly to time each clip: the per-key budget (decision 0026) is off.
  const server = await startServer(ROOT, dataDir, {
    KIKITORI_ENGINE_DEFAULT: 'pocketsphinx',
    KIKITORI_LOG_LEVEL: 'info',
    KIKITORI_RATE_LIMIT_PER_KEY: '0',
  });
  const logs: string[] = [];
  server.child.stdout!.on('data', (d: Buffer) => logs.push(...d.toString().split('\n').filter(Boolean)));
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(server.url + route, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as Record<string, unknown>;
  };
  const run = async (clip: { file: string }) => {
    const ticket = await api('POST', '/api/v1/transcriptions/upload', {
      filename: path.basename(clip.file),
      language: 'en',
    });
    const id = ticket.transcription_id as string;
    const put = await fetch(ticket.audio_upload_url as string, { method: 'PUT', body: fs.readFileSync(clip.file) });
    if (!put.ok) throw new Error(`upload failed: ${put.status}`);
    const started = performance.now();
    await api('POST', `/api/v1/transcriptions/${id}/transcribe`);
    for (;;) {
      const record = await api('GET', `/api/v1/transcriptions/${id}`);
      if (record.status === 'COMPLETED') return (performance.now() - started) / 1000;
      if (record.status === 'FAILED') throw new Error(`transcription failed: ${String(record.failure_reason)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  try {
    const first = await run(clips[0]!); // the first job after start also loads the engines
    logs.length = 0;
    const seconds: number[] = [];
    for (const clip of clips) seconds.push(await run(clip));
    const stages = new Map<string, number[]>();
    for (const line of logs) {
      const entry = JSON.parse(line) as { msg?: string; timings?: Record<string, number> };
      if (entry.msg !== 'transcription timings' || !entry.timings) continue;
      for (const [stage, ms] of Object.entries(entry.timings)) stages.set(stage, [...(stages.get(stage) ?? []), ms]);
    }
    const breakdown = [...stages]
      .map(([stage, ms]) => `${stage} ${(ms.reduce((a, b) => a + b, 0) / ms.length).toFixed(0)}`)
      .join(', ');
    const lengths = clips.map((c) => c.duration);
    const describe = `${clips.length} clips of ${Math.min(...lengths).toFixed(1)}-${Math.max(...lengths).toFixed(1)} s, pocketsphinx, real HTTP`;
    const p50 = percentile(seconds, 50);
    rows.push({
      measure: `Short-clip latency p50, /transcribe -> COMPLETED (${describe})`,
      result: `${p50.toFixed(2)} s`,
      target: '<= 1.0 s',
      ok: p50 <= 1,
    });
    rows.push({
      measure: `Short-clip latency p95 (same clips)`,
      result: `${percentile(seconds, 95).toFixed(2)} s`,
      target: '-',
      ok: null,
    });
    rows.push({
      measure: `First job after server start (loads the engines; info)`,
      result: `${first.toFixed(2)} s`,
      target: '-',
      ok: null,
    });
    if (breakdown)
      rows.push({
        measure: `Mean stage timings, ms (server log; info): ${breakdown}`,
        result: '-',
        target: '-',
        ok: null,
      });
  } finally {
    await stopServer(server.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The real shapes of whisper's tiny, base and small (width, heads, encoder and decoder layers). */
const WHISPER_SHAPES = [
  { name: 'tiny', state: 384, heads: 6, audioLayers: 4, textLayers: 4, target: null },
  { name: 'base', state: 512, heads: 8, audioLayers: 6, textLayers: 6, target: 0.25 },
  { name: 'small', state: 768, heads: 12, audioLayers: 12, textLayers: 12, target: null },
] as const;
/** Tokens decoded per second of speech: English read speech is ~2.5 words/s, ~3 whisper tokens/s. */
const TOKENS_PER_SECOND = 3;

/**
 * whisper.cpp speed on this machine: random-weight models with the real shapes (the cost of a forward
 * pass depends on the shapes, not on the values), a fixed decode length of TOKENS_PER_SECOND so that a
 * model that recognizes nothing decodes what a real one would, on real speech (the testdata LibriVox
 * utterances and goforward with 0.5 s pauses), through WhisperEngine (VAD, windows, the default threads).
 * The model is loaded by a warm-up call first; its load time is shown apart.
 */
async function whisperSpeed(rows: Row[]): Promise<void> {
  const { librivox, goforward } = await testdataUtterances();
  const wav = await concatenate(
    [...librivox, goforward].map((u) => u.wav),
    [...librivox].map(() => 0.5),
  );
  const pcm = await pcmOf(wav);
  const duration = await durationOf(wav);
  const warmUp = await pcmOf(goforward.wav);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kikitori-bench-whisper-'));
  try {
    for (const shape of WHISPER_SHAPES) {
      const made = performance.now();
      const model = await randomWhisperModel({
        state: shape.state,
        heads: shape.heads,
        audioLayers: shape.audioLayers,
        textLayers: shape.textLayers,
      });
      process.stderr.write(
        `  whisper ${shape.name}: model ready in ${((performance.now() - made) / 1000).toFixed(1)} s (${(fs.statSync(model).size / 1e6).toFixed(0)} MB)\n`,
      );
      const engine = new WhisperEngine({ model, dataDir, fixedTokensPerSecond: TOKENS_PER_SECOND, vadLog: () => {} });
      try {
        const loadStarted = performance.now();
        await engine.recognize({ pcmPath: warmUp, language: 'en', vocabulary: [], signal });
        const warm = (performance.now() - loadStarted) / 1000;
        const started = performance.now();
        const result = await engine.recognize({ pcmPath: pcm, language: 'en', vocabulary: [], signal });
        const seconds = (performance.now() - started) / 1000;
        const rtf = seconds / duration;
        const tokens = result.segments.reduce((n, s) => n + s.words.length, 0);
        rows.push({
          measure: `whisper.cpp RTF, ${shape.name} shape (${shape.state}/${shape.heads}/${shape.audioLayers}/${shape.textLayers}, random weights, ${TOKENS_PER_SECOND} tokens/s; ${duration.toFixed(0)} s real speech, ${result.speakingDuration.toFixed(0)} s speech; ${tokens} words; first call ${warm.toFixed(1)} s)`,
          result: `${rtf.toFixed(3)} (${seconds.toFixed(1)} s)`,
          target: shape.target === null ? '-' : `<= ${shape.target}`,
          ok: shape.target === null ? null : rtf <= shape.target,
        });
      } finally {
        await engine.close();
      }
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function printTable(rows: Row[]): void {
  const header = ['Measure', 'Result', 'Target', ''];
  const cells = rows.map((r) => [r.measure, r.result, r.target, r.ok === null ? '' : r.ok ? 'ok' : 'MISSED']);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  if (process.argv[2] === '--decode-long') return decodeLong(process.argv[3]!);
  const engine = new PocketsphinxEngine({ vadLog: () => {} });
  const rows: Row[] = [];
  const step = async (name: string, fn: () => Promise<void>) => {
    const started = performance.now();
    process.stderr.write(`bench:asr: ${name}...\n`);
    await fn();
    process.stderr.write(`bench:asr: ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  };
  const wanted = (part: string) => ONLY.length === 0 || ONLY.includes(part);
  if (wanted('wer')) {
    await step('real speech', () => realSpeech(engine, rows));
    await step('festival', () => festival(engine, rows));
  }
  if (wanted('names')) await step('invented names', () => inventedNames(engine, rows));
  if (wanted('diarization')) await step('diarization', () => diarization(engine, rows));
  if (wanted('long') && LONG_SECONDS > 0) await step(`long file (${LONG_SECONDS} s)`, () => longFile(rows));
  if (wanted('latency')) await step('short-clip latency', () => shortClipLatency(rows));
  if (wanted('whisper')) await step('whisper speed', () => whisperSpeed(rows));
  if (wanted('language')) await step('language check', () => languageMismatchBench(rows));
  if (wanted('confidence')) await step('word confidence', () => confidenceBench(rows));
  console.log(`\nbench:asr — pocketsphinx 5prealpha en-us, VAD ${engine.vad.name}, speaker separation embedded-mfcc\n`);
  printTable(rows);
}

await main();
