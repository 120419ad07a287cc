// Audio for the speech benchmark (bench/asr-bench.ts), all made on this machine from Debian packages:
// - real recordings from pocketsphinx-testdata with their reference transcripts;
// - festival (HTS voice cmu_us_slt_arctic_hts) and espeak-ng (en-us) sentences;
// - a multi-speaker conversation glued from testdata recordings of three different men, with the
//   turn boundaries known;
// - a long file (hours) repeating real speech with pauses and long silences.
// Files are cached under the OS temp dir keyed by what made them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileCache } from './file-cache.js';
import { seededRandom } from '../src-shared/seeded-random.js';

const run = promisify(execFile);

export const TESTDATA_DIR = '/usr/share/pocketsphinx/test/data';
export const CACHE_DIR = path.join(os.tmpdir(), 'kikitori-bench-audio');
const CACHE_VERSION = 1;

export interface Utterance {
  id: string;
  /** The recording as the package ships it (WAV, or headerless 16 kHz PCM for .raw). */
  source: string;
  /** 16 kHz mono 16-bit WAV, leading and trailing silence trimmed. */
  wav: string;
  /** Reference transcript (lower case words). */
  text: string;
  /** Who speaks: recordings known to come from the same person share this. */
  speaker: string;
}

export interface Turn {
  start: number;
  end: number;
  speaker: string;
}

const cached = fileCache(CACHE_DIR, CACHE_VERSION);

const RAW_IN = ['-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-L'];
const WAV_OUT = ['-r', '16000', '-c', '1', '-b', '16'];
/** sox effect: strip leading and trailing silence (below 0.5% of full scale for 30 ms). */
const TRIM = ['silence', '1', '0.03', '0.5%', 'reverse', 'silence', '1', '0.03', '0.5%', 'reverse'];

/** 16 kHz mono WAV of a testdata file (WAV or headerless 16 kHz PCM), trimmed. */
async function testdataWav(file: string): Promise<string> {
  const input = file.endsWith('.raw') ? [...RAW_IN, file] : [file];
  return cached(['testdata', file], 'wav', (tmp) =>
    run('sox', [...input, ...WAV_OUT, tmp, ...TRIM]).then(() => undefined),
  );
}

async function utterance(id: string, file: string, text: string, speaker: string): Promise<Utterance> {
  const source = path.join(TESTDATA_DIR, file);
  return { id, source, wav: await testdataWav(source), text, speaker };
}

/** Raw 16 kHz mono s16le PCM (what the server's CONVERTING stage writes) of an audio file. */
export async function pcmOf(file: string): Promise<string> {
  return cached(['pcm', file, (await fsp.stat(file)).size], 'pcm', (tmp) =>
    run('sox', [...(file.endsWith('.raw') ? RAW_IN : []), file, ...RAW_IN, tmp]).then(() => undefined),
  );
}

export async function durationOf(file: string): Promise<number> {
  return Number((await run('soxi', ['-D', file])).stdout.trim());
}

function transcriptLines(file: string): Map<string, string> {
  // "<s> words </s> (id)"
  const map = new Map<string, string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^(.*)\(([^)]+)\)\s*$/.exec(line.trim());
    if (m)
      map.set(
        m[2]!.trim(),
        m[1]!
          .replace(/<\/?s>/g, ' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
  }
  return map;
}

/**
 * The testdata recordings with a reference transcript: five LibriVox utterances (one reader,
 * "Sense and Sensibility"), goforward.raw ("go forward ten meters", the public rule of
 * goforward.gram), the five "cards" recordings (one speaker), and, for speaker tests only (no
 * transcript in the package), something.raw, numbers.raw and tidigits dhd.2934z.raw.
 * Speakers: "librivox" (F0 ~90 Hz), "cards" (~105 Hz), "dhd" (~120 Hz: goforward, something,
 * numbers, tidigits/dhd; recorded by the same developer as the pocketsphinx test files).
 */
export async function testdataUtterances(): Promise<{
  librivox: Utterance[];
  goforward: Utterance;
  cards: Utterance[];
  dhdExtra: Utterance[];
}> {
  const libri = transcriptLines(path.join(TESTDATA_DIR, 'librivox/transcription'));
  const ids = fs
    .readFileSync(path.join(TESTDATA_DIR, 'librivox/fileids'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const librivox = await Promise.all(
    ids.map(async (id) => utterance(id, `librivox/${id}.wav`, libri.get(id) ?? '', 'librivox')),
  );
  const gram = fs.readFileSync(path.join(TESTDATA_DIR, 'goforward.gram'), 'utf8');
  const goText = /public\s+<move>\s*=\s*([^;]+);/.exec(gram)?.[1]?.trim() ?? 'go forward ten meters';
  const goforward = await utterance('goforward', 'goforward.raw', goText, 'dhd');
  const cardText = transcriptLines(path.join(TESTDATA_DIR, 'cards/cards.transcription'));
  const cardIds = fs
    .readFileSync(path.join(TESTDATA_DIR, 'cards/cards.fileids'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const cards = await Promise.all(
    cardIds.map(async (id) => utterance(`cards/${id}`, `cards/${id}.wav`, cardText.get(id) ?? '', 'cards')),
  );
  const dhdExtra = await Promise.all(
    ['something.raw', 'numbers.raw', 'tidigits/dhd.2934z.raw'].map((f) => utterance(f, f, '', 'dhd')),
  );
  return { librivox, goforward, cards, dhdExtra };
}

/** Festival HTS (cmu_us_slt_arctic_hts, a US English female voice) reading `text`, as 16 kHz WAV. */
export async function festivalWav(text: string): Promise<string> {
  return cached(['festival-slt', text], 'wav', async (tmp) => {
    const textFile = `${tmp}.txt`;
    const raw = `${tmp}.32k.wav`;
    await fsp.writeFile(textFile, text);
    try {
      await run('text2wave', ['-eval', '(voice_cmu_us_slt_arctic_hts)', textFile, '-o', raw]);
      await run('sox', [raw, ...WAV_OUT, tmp]);
    } finally {
      await fsp.rm(textFile, { force: true });
      await fsp.rm(raw, { force: true });
    }
  });
}

/**
 * espeak-ng (a formant synthesizer, far from festival's) reading `text` in `voice` (en-us by default; e.g.
 * "en-gb+m3", British English with a male variant), as 16 kHz WAV.
 */
export async function espeakWav(text: string, voice = 'en-us'): Promise<string> {
  return cached([`espeak-${voice}`, text], 'wav', async (tmp) => {
    const raw = `${tmp}.22k.wav`;
    try {
      await run('espeak-ng', ['-v', voice, '-w', raw, '--', text]);
      await run('sox', [raw, ...WAV_OUT, tmp]);
    } finally {
      await fsp.rm(raw, { force: true });
    }
  });
}

async function silenceWav(seconds: number): Promise<string> {
  return cached(['silence', seconds], 'wav', (tmp) =>
    run('sox', ['-n', ...WAV_OUT, tmp, 'trim', '0', String(seconds)]).then(() => undefined),
  );
}

/** parts[0] + gaps[0] of silence + parts[1] + ... as one 16 kHz WAV. */
export async function concatenate(parts: string[], gaps: number[]): Promise<string> {
  const inputs: string[] = [];
  for (const [i, p] of parts.entries()) {
    if (i > 0 && gaps[i - 1]! > 0) inputs.push(await silenceWav(gaps[i - 1]!));
    inputs.push(p);
  }
  if (inputs.length === 1) return inputs[0]!;
  return cached(['concat', inputs], 'wav', (tmp) => run('sox', [...inputs, tmp]).then(() => undefined));
}

/**
 * A conversation of real recordings: `speakers` alternate in turns of one or two utterances,
 * separated by 0.2-1.0 s pauses, until `targetSeconds`. Reference turns are the utterances'
 * extents (an utterance's trimmed recording is one turn; two utterances in one turn, with the
 * 0.3 s pause between them, make one turn).
 */
export async function conversation(
  speakers: Record<string, Utterance[]>,
  targetSeconds: number,
  seed = 7,
): Promise<{ wav: string; reference: Turn[]; duration: number }> {
  const rand = seededRandom(seed);
  const names = Object.keys(speakers);
  const next = new Map(names.map((n) => [n, 0]));
  const parts: string[] = [];
  const gaps: number[] = [];
  const reference: Turn[] = [];
  let t = 0;
  let current = '';
  const durations = new Map<string, number>();
  const lengthOf = async (wav: string) => {
    if (!durations.has(wav)) durations.set(wav, await durationOf(wav));
    return durations.get(wav)!;
  };
  while (t < targetSeconds) {
    const choices = names.filter((n) => n !== current);
    current = choices[Math.floor(rand() * choices.length)]!;
    const pool = speakers[current]!;
    const count = pool.length > 1 && rand() < 0.35 ? 2 : 1;
    if (parts.length > 0) {
      const gap = [0.2, 0.4, 0.7, 1.0][Math.floor(rand() * 4)]!;
      gaps.push(gap);
      t += gap;
    }
    const start = t;
    for (let c = 0; c < count; c++) {
      const i = next.get(current)!;
      next.set(current, i + 1);
      const u = pool[i % pool.length]!;
      if (c > 0) {
        gaps.push(0.3);
        t += 0.3;
      }
      parts.push(u.wav);
      t += await lengthOf(u.wav);
    }
    reference.push({ start: round(start), end: round(t), speaker: current });
  }
  const wav = await concatenate(parts, gaps);
  return { wav, reference, duration: await durationOf(wav) };
}

/**
 * A long recording: the given utterances twice over with pauses of 0.3-2 s, a 15 s silence in the
 * middle and 25 s at the end, that block repeated by sox until `seconds` (230 MB of PCM per 2 hours).
 */
export async function longRecording(
  utterances: Utterance[],
  seconds: number,
): Promise<{ pcm: string; duration: number; block: number }> {
  const rand = seededRandom(11);
  const parts: string[] = [];
  const gaps: number[] = [];
  for (const [i, u] of [...utterances, ...utterances].entries()) {
    parts.push(u.wav);
    gaps.push(i === utterances.length - 1 ? 15 : 0.3 + rand() * 1.7);
  }
  const block = await concatenate(parts, gaps.slice(0, -1));
  const withTail = await concatenate([block, await silenceWav(25)], [0]);
  const blockSeconds = await durationOf(withTail);
  const repeats = Math.max(1, Math.ceil(seconds / blockSeconds));
  const pcm = await cached(['long', withTail, repeats], 'pcm', (tmp) =>
    run('sox', [withTail, ...RAW_IN, tmp, 'repeat', String(repeats - 1)]).then(() => undefined),
  );
  return { pcm, duration: (await fsp.stat(pcm)).size / 32000, block: blockSeconds };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Ten sentences of everyday speech, shared by the benches (festival's set, the term-free sentences, the language set). */
export const EVERYDAY_SENTENCES = [
  'We will meet at the office after lunch to review the budget.',
  'Please remember to lock the door when you leave the house.',
  'The weather forecast says it will rain tomorrow afternoon.',
  'She bought a new car last week and drove it to the beach.',
  'Our team finished the project two days ahead of schedule.',
  'The children played in the park until it got dark.',
  'He asked the waiter for a glass of water and the menu.',
  'The train to the city leaves every twenty minutes.',
  'I think we should call the customer and explain the delay.',
  'The meeting was moved to Thursday because of the holiday.',
];

/** Sentences read by festival in the benches: ten Harvard sentences and the ten of everyday speech. */
export const FESTIVAL_SENTENCES = [
  'The birch canoe slid on the smooth planks.',
  'Glue the sheet to the dark blue background.',
  'It is easy to tell the depth of a well.',
  'These days a chicken leg is a rare dish.',
  'Rice is often served in round bowls.',
  'The juice of lemons makes fine punch.',
  'The box was thrown beside the parked truck.',
  'Four hours of steady work faced us.',
  'A large size in stockings is hard to sell.',
  'The boy was there when the sun rose.',
  ...EVERYDAY_SENTENCES,
];
