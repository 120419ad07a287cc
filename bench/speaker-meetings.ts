// bench:speakers, the meeting set of issue 25 item 6: meetings of 2 to 8 speakers drawn from 19 voices
// (festival's HTS voice, espeak-ng variants, the three real people of Debian's pocketsphinx test data, and
// pitch- and tempo-shifted copies of festival and of the real people made with sox), with pauses, quick
// turns and some overlap. Deterministic: every meeting is made from its seed (voices, order, sentences,
// gaps), and every file is cached (bench/file-cache.ts) keyed by what made it.
// Two halves: "tuning" meetings (even seeds, the tuning sentences) are the ones settings may be chosen on;
// "held-out" meetings (odd seeds, other sentences) are reported apart and nothing is chosen on them.
import fsp from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { seededRandom } from '../src-shared/seeded-random.js';
import { fileCache } from './file-cache.js';
import {
  CACHE_DIR,
  EVERYDAY_SENTENCES,
  festivalWav,
  pcmOf,
  testdataUtterances,
  type Turn,
  type Utterance,
} from './speech-corpus.js';

const run = promisify(execFile);
const cached = fileCache(CACHE_DIR, 1);
const BYTES_PER_SECOND = 32000;

/** A voice of the set: a generated voice or a real person's recordings, with sox effects on top. */
interface VoiceSpec {
  name: string;
  source: { voice: Voice } | { person: 'librivox' | 'cards' | 'dhd' };
  /** sox effects making another speaker of the source (pitch in cents, tempo factor). */
  effects: string[];
}

/**
 * No two espeak-ng voices share a variant (the variant is the voice: formants, pitch, breath; the language
 * only changes the accent: en-us, en-gb and en-gb-scotland without a variant are one voice, three accents).
 */
export const VOICES: readonly VoiceSpec[] = [
  { name: 'festival', source: { voice: 'festival' }, effects: [] },
  { name: 'festival -400c', source: { voice: 'festival' }, effects: ['pitch', '-400'] },
  { name: 'festival +300c x0.9', source: { voice: 'festival' }, effects: ['pitch', '300', 'tempo', '0.9'] },
  { name: 'espeak en-us', source: { voice: 'espeak:en-us' }, effects: [] },
  { name: 'espeak en-us+f3', source: { voice: 'espeak:en-us+f3' }, effects: [] },
  { name: 'espeak en-gb+m2', source: { voice: 'espeak:en-gb+m2' }, effects: [] },
  { name: 'espeak en-us+m3', source: { voice: 'espeak:en-us+m3' }, effects: [] },
  { name: 'espeak en-us+f2', source: { voice: 'espeak:en-us+f2' }, effects: [] },
  { name: 'espeak en-us+m1', source: { voice: 'espeak:en-us+m1' }, effects: [] },
  { name: 'espeak en-gb-scotland+m6', source: { voice: 'espeak:en-gb-scotland+m6' }, effects: [] },
  { name: 'espeak en-us+f4', source: { voice: 'espeak:en-us+f4' }, effects: [] },
  { name: 'espeak en-029+m7', source: { voice: 'espeak:en-029+m7' }, effects: [] },
  { name: 'espeak en-gb-x-rp+f5', source: { voice: 'espeak:en-gb-x-rp+f5' }, effects: [] },
  { name: 'real librivox', source: { person: 'librivox' }, effects: [] },
  { name: 'real cards', source: { person: 'cards' }, effects: [] },
  { name: 'real dhd', source: { person: 'dhd' }, effects: [] },
  { name: 'real librivox +400c x0.92', source: { person: 'librivox' }, effects: ['pitch', '400', 'tempo', '0.92'] },
  { name: 'real cards -300c', source: { person: 'cards' }, effects: ['pitch', '-300'] },
  { name: 'real dhd +500c x1.1', source: { person: 'dhd' }, effects: ['pitch', '500', 'tempo', '1.1'] },
];

/** The 0057 set's meeting lines, also the first of the tuning half's. */
export const MEETING_SENTENCES = [
  'Good morning, did you get the report I sent yesterday?',
  'Yes, I read it last night and it looks fine to me.',
  'Great, then we can send it to the customer today.',
  'Let us wait until the numbers are checked by finance.',
  'All right, I will ask the team to check them this morning.',
  'Thank you, call me when it is done.',
  'The new office opens in March, two weeks later than planned.',
  'Who is moving first, the design team or the support team?',
  'Support moves first, because their lease ends in February.',
  'Then we need the network ready by the end of January.',
  'I will talk to the landlord about the cables on Monday.',
  'Good, and please send everyone the floor plan as well.',
];

const TUNING_SENTENCES = [
  ...MEETING_SENTENCES,
  'the quarterly numbers look strong this time',
  'i agree and the costs went down as well',
  'then we should hire two more engineers',
  'let us talk about that next week',
  ...EVERYDAY_SENTENCES,
];

const HELD_OUT_SENTENCES = [
  'Has anyone heard back from the printer about the brochures?',
  'Not yet, they promised an answer before the weekend.',
  'If they are late again we should look for another supplier.',
  'I have two quotes already, both a little more expensive.',
  'How much more, roughly, per thousand copies?',
  'About ten percent, but delivery is twice as fast.',
  'That might be worth it for the spring campaign.',
  'Can we decide on Friday, after the sales call?',
  'Sure, put it on the agenda and invite Maria.',
  'She is travelling, but she can join by phone.',
  'Then let us keep it short, fifteen minutes at most.',
  'One more thing, the website still shows last year prices.',
  'I noticed that too, the fix goes live tonight.',
  'Good, thanks everyone, see you on Friday.',
  'The heating in the meeting room is broken again.',
  'I reported it this morning, someone comes on Tuesday.',
  'Could we borrow the large room upstairs until then?',
  'Only in the afternoons, the mornings are booked by training.',
  'Afternoons are fine for us, we start at two.',
  'Then I will move our calendar entries today.',
];

export interface SetMeeting {
  name: string;
  /** Raw 16 kHz mono s16le PCM. */
  pcm: string;
  reference: Turn[];
  speakers: number;
  part: 'tuning' | 'held-out';
  seconds: number;
}

/** Speaker counts of each half: four meetings each of 2, 3 and 4 speakers, one each of 5-8. */
const COUNTS = [2, 3, 4, 2, 3, 4, 2, 3, 4, 2, 3, 4, 5, 6, 7, 8];

/** The whole set: COUNTS.length meetings per half. */
export async function meetingSet(parts: readonly SetMeeting['part'][] = ['tuning', 'held-out']): Promise<SetMeeting[]> {
  const people = await realPeople();
  const out: SetMeeting[] = [];
  for (const part of parts) {
    for (const [i, count] of COUNTS.entries()) {
      out.push(await meeting(2 * i + (part === 'held-out' ? 1 : 0), count, part, people));
    }
  }
  return out;
}

type People = Record<'librivox' | 'cards' | 'dhd', Utterance[]>;

async function realPeople(): Promise<People> {
  const { librivox, goforward, cards, dhdExtra } = await testdataUtterances();
  return { librivox, cards, dhd: [goforward, ...dhdExtra] };
}

/**
 * One meeting from its seed: `count` voices drawn from VOICES; every voice speaks first in a shuffled order,
 * then turns go to any other voice, until 40-90 s (60-90 s for 5-8 voices) and every voice has had two turns; a turn is one sentence (or real recording), two in 30% of turns (0.3 s
 * apart); between turns a pause of 0.2-1.5 s (60%), a quick turn of 0.05-0.15 s (25%), or an overlap of
 * 0.3-1 s (15%: the next voice starts before the previous one ends).
 */
async function meeting(seed: number, count: number, part: SetMeeting['part'], people: People): Promise<SetMeeting> {
  const rand = seededRandom(1000 + seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const pool = VOICES.map((_, i) => i);
  for (let i = pool.length - 1; i > 0; i--) {
    const j = pick(i + 1);
    [pool[i], pool[j]] = [pool[j]!, pool[i]!];
  }
  const voices = pool.slice(0, count).map((i) => VOICES[i]!);
  const target = count >= 5 ? 60 + rand() * 30 : 40 + rand() * 50;
  const turns = new Array<number>(count).fill(0);
  const sentences = part === 'tuning' ? TUNING_SENTENCES : HELD_OUT_SENTENCES;
  let nextSentence = pick(sentences.length);
  const nextRecording = new Map<string, number>();
  const placed: { pcm: string; at: number }[] = [];
  const reference: Turn[] = [];
  let end = 0;
  let lastStart = 0;
  let current = -1;
  for (let turn = 0; end < target || turns.some((n) => n < 2); turn++) {
    // Past the target length, only voices still short of two turns are chosen.
    const others = [...voices.keys()].filter((v) => v !== current);
    const owed = others.filter((v) => turns[v]! < 2);
    const choices = end >= target && owed.length > 0 ? owed : others;
    const speaker = turn < count ? turn : choices[pick(choices.length)]!;
    current = speaker;
    turns[speaker]!++;
    const voice = voices[speaker]!;
    let start = end;
    if (turn > 0) {
      const r = rand();
      if (r < 0.15) start = Math.max(lastStart + 1, end - (0.3 + rand() * 0.7));
      else if (r < 0.4) start = end + 0.05 + rand() * 0.1;
      else start = end + 0.2 + rand() * 1.3;
    }
    start = Math.round(start * 1000) / 1000;
    lastStart = start;
    const pieces = rand() < 0.3 ? 2 : 1;
    let t = start;
    for (let p = 0; p < pieces; p++) {
      if (p > 0) t += 0.3;
      let pcm: string;
      if ('voice' in voice.source) {
        pcm = await render(voice, { text: sentences[nextSentence++ % sentences.length]! });
      } else {
        const recordings = people[voice.source.person];
        const k = nextRecording.get(voice.name) ?? pick(recordings.length);
        nextRecording.set(voice.name, k + 1);
        pcm = await render(voice, { wav: recordings[k % recordings.length]!.wav });
      }
      placed.push({ pcm, at: t });
      t += (await fsp.stat(pcm)).size / BYTES_PER_SECOND;
    }
    reference.push({ start, end: Math.round(t * 1000) / 1000, speaker: voice.name });
    end = Math.max(end, t);
  }
  const pcm = await mix(placed);
  return {
    name: `${part} #${seed}: ${voices.map((v) => v.name).join(', ')}`,
    pcm,
    reference,
    speakers: count,
    part,
    seconds: (await fsp.stat(pcm)).size / BYTES_PER_SECOND,
  };
}

/** A sentence read by a generated voice, or a real recording, with the voice's effects, peak-normalised to -3 dB. */
async function render(voice: VoiceSpec, what: { text: string } | { wav: string }): Promise<string> {
  const input = 'wav' in what ? what.wav : await speak((voice.source as { voice: Voice }).voice, what.text);
  const wav = await cached(['voice-effects', input, voice.effects], 'wav', (tmp) =>
    run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', tmp, ...voice.effects, 'norm', '-3']).then(
      () => undefined,
    ),
  );
  return pcmOf(wav);
}

/** A generated voice: festival's HTS voice or an espeak-ng voice with a variant ("en-us+f3"). */
export type Voice = 'festival' | `espeak:${string}`;

/** `text` read by a generated voice, as 16 kHz mono WAV. */
export async function speak(voice: Voice, text: string): Promise<string> {
  if (voice === 'festival') return festivalWav(text);
  const name = voice.slice('espeak:'.length);
  return cached(['espeak', name, text], 'wav', async (tmp) => {
    const raw = `${tmp}.22k.wav`;
    try {
      await run('espeak-ng', ['-v', name, '-w', raw, '--', text]);
      await run('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', tmp]);
    } finally {
      await fsp.rm(raw, { force: true });
    }
  });
}

/** The parts (raw PCM) summed at their start times, clipped to 16 bits. */
async function mix(parts: { pcm: string; at: number }[]): Promise<string> {
  return cached(['mix', parts], 'pcm', async (tmp) => {
    const loaded = await Promise.all(
      parts.map(async (p) => ({ at: Math.round(p.at * 16000), data: await fsp.readFile(p.pcm) })),
    );
    const length = Math.max(...loaded.map((p) => p.at + (p.data.length >> 1)));
    const sum = new Float64Array(length);
    for (const { at, data } of loaded) {
      for (let i = 0; i < data.length >> 1; i++) sum[at + i]! += data.readInt16LE(2 * i);
    }
    const out = Buffer.alloc(2 * length);
    for (let i = 0; i < length; i++) out.writeInt16LE(Math.max(-32768, Math.min(32767, Math.round(sum[i]!))), 2 * i);
    await fsp.writeFile(tmp, out);
  });
}
