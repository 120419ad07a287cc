// npm run bench:speakers — the embedded speaker separation (decision 0057) on generated meetings, the
// standard pass (transcription_model "default") beside the enhanced one ("diarization-high"), in three parts:
// - "0057": the recordings decision 0057 was measured and tuned on: meetings of two and three voices made of
//   festival (HTS slt) and espeak-ng variants with pauses of 0.15-1 s and quick turns; conversations of real
//   people from Debian's pocketsphinx test data; one-speaker recordings, where the automatic count must find
//   exactly one;
// - "tuning" and "held-out" (issue 25 item 6, decision 0091, bench/speaker-meetings.ts): 16 meetings each of
//   2-8 speakers drawn from 19 voices, with pauses, quick turns and overlap; settings may be chosen on the
//   tuning half only, the held-out half (other seeds, other sentences) is reported apart.
// Per meeting and pass: DER (0.25 s collar) with the count given and found automatically, the count found,
// and the separation's time (the VAD's regions are computed once, outside the timing); then per part and
// speaker count (1, 2, 3, 4, 5-8, and 2-4) the pooled DERs, how often the count is found exactly, and the
// real-time factor. BENCH_PARTS=tuning,0057 and BENCH_QUALITY=standard run less; BENCH_SECTION=separation
// skips the identification part.
// Then identification of enrolled voices across files (decision 0065, the team voice library): voices enrolled
// from turns of one set of meetings, recognized in new meetings after separation; the match settings are
// chosen on the tuning meetings and reported on held-out meetings (other sentences, other pairings, and
// unenrolled voices that no tuning meeting has). BENCH_SECTION=identification runs only that part.
// Figures are printed, not asserted: benches are not tests.
import fsp from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { diarizationError, type DiarizationErrorResult } from '../src-server/engines/speakers/diarization-error.js';
import {
  EmbeddedSpeakerSeparation,
  type EmbeddedSeparationOptions,
} from '../src-server/engines/speakers/embedded-speaker-separation.js';
import type { SeparationQuality } from '../src-server/engines/speakers/speaker-separation.js';
import { SileroVad } from '../src-server/engines/vad/silero-vad.js';
import { identificationBench } from './voice-identification.js';
import { seededRandom } from '../src-shared/seeded-random.js';
import { MEETING_SENTENCES, meetingSet, speak, type SetMeeting, type Voice } from './speaker-meetings.js';
import {
  concatenate,
  conversation,
  durationOf,
  festivalWav,
  pcmOf,
  testdataUtterances,
  type Turn,
} from './speech-corpus.js';

const signal = new AbortController().signal;

const SENTENCES = MEETING_SENTENCES;

/** About 2.5 s each: shorter than the 4 s windows of the clustering. */
const SHORT_SENTENCES = [
  'the quarterly numbers look strong this time',
  'i agree and the costs went down as well',
  'then we should hire two more engineers',
  'let us talk about that next week',
  'fine, i will book a room for tuesday',
  'thanks, and bring the hiring plan',
];

/**
 * Lines spoken in turn by `voices` (one or two sentences a turn), pauses between turns of 0.15-1 s, or
 * 0.05 s with `quick` (too short for the VAD to cut: turns change inside a speech region); `short`: one
 * sentence of about 2.5 s a turn.
 */
async function generatedMeeting(
  voices: Voice[],
  seed: number,
  options: { quick?: boolean; short?: boolean; sentences?: readonly string[] } = {},
): Promise<Meeting> {
  const { quick = false, short = false } = options;
  const sentences = options.sentences ?? (short ? SHORT_SENTENCES : SENTENCES);
  const rand = seededRandom(seed);
  const parts: string[] = [];
  const gaps: number[] = [];
  const reference: Turn[] = [];
  let t = 0;
  let current = -1;
  for (let i = 0; i < sentences.length;) {
    const choices = voices.map((_, v) => v).filter((v) => v !== current);
    current = choices[Math.floor(rand() * choices.length)]!;
    const count = !short && rand() < 0.3 ? 2 : 1;
    if (parts.length > 0) {
      const gap = quick ? 0.05 : [0.15, 0.3, 0.6, 1.0][Math.floor(rand() * 4)]!;
      gaps.push(gap);
      t += gap;
    }
    const start = t;
    for (let c = 0; c < count && i < sentences.length; c++, i++) {
      if (c > 0) {
        gaps.push(0.3);
        t += 0.3;
      }
      const wav = await speak(voices[current]!, sentences[i]!);
      parts.push(wav);
      t += await durationOf(wav);
    }
    reference.push({ start, end: t, speaker: voices[current]! });
  }
  const wav = await concatenate(parts, gaps);
  const kind = [quick && 'quick', short && 'short'].filter(Boolean).join(' ');
  return { name: voices.join(' + ') + (kind ? ` (${kind} turns)` : ''), wav, reference, speakers: voices.length };
}

export type { Voice };

export interface Meeting {
  name: string;
  wav: string;
  reference: Turn[];
  speakers: number;
}

async function meetings(): Promise<Meeting[]> {
  const { librivox, goforward, cards, dhdExtra } = await testdataUtterances();
  const dhd = [goforward, ...dhdExtra];
  const real = async (name: string, people: Record<string, typeof librivox>, seconds: number, seed: number) => {
    const c = await conversation(people, seconds, seed);
    return { name, wav: c.wav, reference: c.reference, speakers: Object.keys(people).length };
  };
  /** One person's recordings with pauses of 0.3-0.8 s. */
  const alone = async (name: string, wavs: string[]): Promise<Meeting> => {
    const gaps = wavs.slice(1).map((_, i) => [0.4, 0.8, 0.3][i % 3]!);
    const reference: Turn[] = [];
    let t = 0;
    for (const [i, wav] of wavs.entries()) {
      const d = await durationOf(wav);
      reference.push({ start: t, end: t + d, speaker: name });
      t += d + (gaps[i] ?? 0);
    }
    return { name, wav: await concatenate(wavs, gaps), reference, speakers: 1 };
  };
  const wavs = (utterances: typeof librivox) => utterances.map((u) => u.wav);
  return [
    await generatedMeeting(['festival', 'espeak:en-us'], 1),
    await generatedMeeting(['espeak:en-us', 'espeak:en-us+f3'], 2),
    await generatedMeeting(['espeak:en-gb', 'espeak:en-us+m3'], 3),
    await generatedMeeting(['festival', 'espeak:en-us', 'espeak:en-us+f3'], 4),
    await generatedMeeting(['festival', 'espeak:en-us'], 5, { quick: true }),
    await generatedMeeting(['espeak:en-us+m3', 'espeak:en-us+f2', 'festival'], 6, { quick: true }),
    await generatedMeeting(['festival', 'espeak:en-us'], 7, { quick: true, short: true }),
    await generatedMeeting(['espeak:en-us+f3', 'espeak:en-us'], 8, { quick: true, short: true }),
    await real('real: librivox + cards', { librivox, cards }, 60, 7),
    await real('real: librivox + cards + dhd', { librivox, cards, dhd }, 75, 7),
    await alone('alone: librivox (real)', wavs(librivox)),
    await alone('alone: cards (real)', wavs(cards)),
    await alone('alone: dhd (real)', wavs(dhd)),
    await alone('alone: festival', await Promise.all(SENTENCES.slice(0, 6).map(festivalWav))),
  ];
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

type Part = SetMeeting['part'] | '0057';

interface Scored {
  part: Part;
  speakers: number;
  seconds: number;
  quality: SeparationQuality;
  given: DiarizationErrorResult;
  noCollar: DiarizationErrorResult;
  auto: DiarizationErrorResult;
  found: number;
  ms: number;
}

/** Speaker-count buckets of the summary. */
const BUCKETS: { label: string; has: (n: number) => boolean }[] = [
  { label: '1', has: (n) => n === 1 },
  { label: '2', has: (n) => n === 2 },
  { label: '3', has: (n) => n === 3 },
  { label: '4', has: (n) => n === 4 },
  { label: '5-8', has: (n) => n >= 5 },
  { label: '2-4', has: (n) => n >= 2 && n <= 4 },
];

/** DER over a group: errors summed over the reference speech summed (longer meetings weigh more). */
function pooled(results: DiarizationErrorResult[]): number {
  const total = results.reduce((s, r) => s + r.total, 0);
  const errors = results.reduce((s, r) => s + r.missed + r.falseAlarm + r.confusion, 0);
  return total > 0 ? errors / total : 0;
}

async function main(): Promise<void> {
  const vad = new SileroVad();
  // BENCH_ENHANCED='{"hopSeconds":1}': try other settings for the enhanced pass.
  const enhanced = JSON.parse(process.env.BENCH_ENHANCED ?? '{}') as Partial<EmbeddedSeparationOptions>;
  const separation = new EmbeddedSpeakerSeparation({ enhanced });
  // BENCH_PARTS=tuning,0057: only some parts; BENCH_QUALITY=standard: only one pass.
  const parts = (process.env.BENCH_PARTS ?? '0057,tuning,held-out').split(',') as Part[];
  const qualities = (process.env.BENCH_QUALITY ?? 'standard,enhanced').split(',') as SeparationQuality[];
  const all: (Omit<SetMeeting, 'part'> & { part: Part })[] = [];
  if (parts.includes('0057')) {
    for (const m of await meetings()) {
      const pcm = await pcmOf(m.wav);
      all.push({ ...m, pcm, part: '0057', seconds: (await fsp.stat(pcm)).size / 32000 });
    }
  }
  all.push(...(await meetingSet(parts.filter((p): p is SetMeeting['part'] => p !== '0057'))));
  console.log(`\nbench:speakers — embedded-mfcc, Silero VAD regions, DER with a 0.25 s collar\n`);
  console.log(
    '| meeting | s | pass | DER count given | same, no collar | DER auto | found (want) | ms given | ms auto |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  const scored: Scored[] = [];
  for (const meeting of all) {
    const speech = await vad.detect(meeting.pcm, { signal });
    for (const quality of qualities) {
      const time = async (options: { numSpeakers?: number }) => {
        const started = performance.now();
        const turns = await separation.separate(meeting.pcm, speech, { ...options, quality, signal });
        return { turns, ms: performance.now() - started };
      };
      const given = await time({ numSpeakers: meeting.speakers });
      const auto = await time({});
      const row: Scored = {
        part: meeting.part,
        speakers: meeting.speakers,
        seconds: meeting.seconds,
        quality,
        given: diarizationError(meeting.reference, given.turns),
        // Boundaries to the frame: no collar.
        noCollar: diarizationError(meeting.reference, given.turns, { collar: 0 }),
        auto: diarizationError(meeting.reference, auto.turns),
        found: new Set(auto.turns.map((t) => t.speaker)).size,
        ms: given.ms + auto.ms,
      };
      scored.push(row);
      console.log(
        `| ${[
          meeting.name,
          meeting.seconds.toFixed(0),
          quality,
          pct(row.given.der),
          pct(row.noCollar.der),
          pct(row.auto.der),
          `${row.found} (${meeting.speakers})`,
          given.ms.toFixed(0),
          auto.ms.toFixed(0),
        ].join(' | ')} |`,
      );
    }
  }
  console.log(
    '\nDER pooled over each group (errors over reference speech); count exact: found automatically = true count;',
  );
  console.log('real-time factor: separation time (both runs) over twice the audio, VAD excluded.\n');
  console.log(
    '| part | speakers | meetings | pass | DER count given | same, no collar | DER auto | count exact | real-time factor |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const part of parts) {
    for (const bucket of BUCKETS) {
      for (const quality of qualities) {
        const group = scored.filter((r) => r.part === part && r.quality === quality && bucket.has(r.speakers));
        if (group.length === 0) continue;
        const exact = group.filter((r) => r.found === r.speakers).length;
        const seconds = group.reduce((s, r) => s + 2 * r.seconds, 0);
        const ms = group.reduce((s, r) => s + r.ms, 0);
        console.log(
          `| ${[
            part,
            bucket.label,
            group.length,
            quality,
            pct(pooled(group.map((r) => r.given))),
            pct(pooled(group.map((r) => r.noCollar))),
            pct(pooled(group.map((r) => r.auto))),
            `${exact}/${group.length}`,
            (ms / 1000 / seconds).toFixed(4),
          ].join(' | ')} |`,
        );
      }
    }
  }
}

if (process.env.BENCH_SECTION !== 'identification') await main();
if (process.env.BENCH_SECTION !== 'separation') await identificationBench({ speak, generatedMeeting });
