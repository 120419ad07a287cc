// bench:speakers, identification section (decision 0065): enrolled voices recognized across files.
// - Enrolment: pairs of voices read ENROL_SENTENCES in a meeting; each enrolled voice is printed from its
//   reference turns there (as a user picks parts of a transcription), real people from two of their
//   recordings.
// - Tuning meetings: 2-3 voices reading the benchmark's sentences, enrolled and unenrolled voices mixed.
// - Held-out meetings: other sentences, other pairings and seeds, and two unenrolled voices that appear in
//   no tuning meeting. Nothing is chosen on them.
// Each meeting is separated as the pipeline does (standard pass, count found automatically); each separated
// speaker is printed from its turns and matched. Its truth is the reference voice it overlaps most.
// Rates per separated speaker: for enrolled voices correct / wrong / no name; for unenrolled voices false name.
// Also reported apart: the speakers that are one voice (the separation mixed no other in), and each enrolled
// voice alone in the library (no cohort to judge a distance against; decision 0084).
import {
  balancedDivergence,
  DEFAULT_VOICE_MATCH,
  matchVoices,
  MfccVoicePrints,
  pooled,
  REFERENCE_VOICE_MATCH,
  type VoiceMatchSettings,
} from '../src-server/engines/speakers/mfcc-voice-prints.js';
import { EmbeddedSpeakerSeparation } from '../src-server/engines/speakers/embedded-speaker-separation.js';
import { GaussianStats } from '../src-server/engines/speakers/clustering.js';
import { SileroVad } from '../src-server/engines/vad/silero-vad.js';
import { concatenate, conversation, durationOf, pcmOf, testdataUtterances, type Turn } from './speech-corpus.js';
import type { Meeting, Voice } from './speakers-bench.js';

const signal = new AbortController().signal;

const ENROL_SENTENCES = [
  'Please call Stella and ask her to bring these things with her from the store.',
  'Six spoons of fresh snow peas, five thick slabs of blue cheese, and maybe a snack.',
  'We also need a small plastic snake and a big toy frog for the kids.',
];

const HELD_OUT_SENTENCES = [
  'The train to the airport leaves every twenty minutes from platform four.',
  'Could you move the review to Thursday afternoon, after lunch?',
  'The printer on the third floor has been broken since last week.',
  'I think the budget for travel is too small for the whole year.',
  'Send me the slides tonight and I will read them on the train.',
  'We lost two customers in May, but we won three new ones in June.',
  'Remember to lock the door and switch off the lights when you leave.',
  'The kitchen will be closed on Friday for cleaning.',
  'Our next release needs better tests and fewer late changes.',
  'She said the contract arrives by courier tomorrow morning.',
];

const ENROLLED: Voice[] = ['festival', 'espeak:en-us', 'espeak:en-us+f3', 'espeak:en-gb', 'espeak:en-us+m3'];
/** Unenrolled voices of the tuning meetings. */
const STRANGERS: Voice[] = ['espeak:en-us+f2', 'espeak:en-us+m1'];
/** Unenrolled voices only the held-out meetings have. */
const HELD_OUT_STRANGERS: Voice[] = ['espeak:en-gb-scotland', 'espeak:en-us+f4'];

interface Helpers {
  speak: (voice: Voice, text: string) => Promise<string>;
  generatedMeeting: (
    voices: Voice[],
    seed: number,
    options?: { quick?: boolean; short?: boolean; sentences?: readonly string[] },
  ) => Promise<Meeting>;
}

interface Scored {
  /** The reference voice the separated speaker overlaps most. */
  truth: string;
  enrolled: boolean;
  stats: GaussianStats;
  /** Share of the speaker's overlap with the reference that is its truth (below 1: separation mixed voices). */
  purity: number;
}

interface Counts {
  enrolled: number;
  correct: number;
  wrong: number;
  none: number;
  strangers: number;
  falseNames: number;
}

const pct = (n: number, d: number) => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`);

/** Prints of each separated speaker of `meeting` (separated as the pipeline does), with their truth. */
async function separatedSpeakers(meeting: Meeting, enrolled: ReadonlySet<string>): Promise<Scored[][]> {
  const separation = new EmbeddedSpeakerSeparation();
  const printer = new MfccVoicePrints();
  const pcm = await pcmOf(meeting.wav);
  const speech = await new SileroVad().detect(pcm, { signal });
  const turns = await separation.separate(pcm, speech, { signal });
  const out: Scored[] = [];
  for (const label of new Set(turns.map((t) => t.speaker))) {
    const mine = turns.filter((t) => t.speaker === label);
    const overlap = new Map<string, number>();
    for (const t of mine)
      for (const r of meeting.reference) {
        const o = Math.min(t.end, r.end) - Math.max(t.start, r.start);
        if (o > 0) overlap.set(r.speaker, (overlap.get(r.speaker) ?? 0) + o);
      }
    const ranked = [...overlap].sort((a, b) => b[1] - a[1]);
    const truth = ranked[0]?.[0];
    if (!truth) continue;
    const purity = ranked[0]![1] / ranked.reduce((s, [, o]) => s + o, 0);
    const { print, speechSeconds } = await printer.print(pcm, mine, signal);
    if (speechSeconds < DEFAULT_VOICE_MATCH.minSpeechSeconds) continue;
    out.push({ truth, enrolled: enrolled.has(truth), stats: pooled([print])!, purity });
  }
  return [out];
}

type Library = { voice: { speakerId: string; name: string; prints: [] }; stats: GaussianStats }[];

/** Reference clips per voice the bench tries (each voice's longest turns of 2-10 s). */
const CLIPS = 3;

/** A separated speaker this much of one voice or more is that voice; below, separation mixed two voices. */
const PURE = 0.8;

function score(meetings: Scored[][], voices: Library, settings: VoiceMatchSettings, pureOnly = false): Counts {
  const c: Counts = { enrolled: 0, correct: 0, wrong: 0, none: 0, strangers: 0, falseNames: 0 };
  for (const speakers of meetings) {
    const names = matchVoices(
      speakers.map((s, i) => ({ label: String(i), stats: s.stats })),
      voices,
      settings,
    );
    speakers.forEach((s, i) => {
      if (pureOnly && s.purity < PURE) return;
      const named = names.get(String(i))?.name;
      if (s.enrolled) {
        c.enrolled++;
        if (named === undefined) c.none++;
        else if (named === s.truth) c.correct++;
        else c.wrong++;
      } else {
        c.strangers++;
        if (named !== undefined) c.falseNames++;
      }
    });
  }
  return c;
}

function row(label: string, c: Counts): string {
  return [
    label,
    String(c.enrolled),
    pct(c.correct, c.enrolled),
    pct(c.wrong, c.enrolled),
    pct(c.none, c.enrolled),
    String(c.strangers),
    pct(c.falseNames, c.strangers),
  ].join(' | ');
}

export async function identificationBench(helpers: Helpers): Promise<void> {
  const { generatedMeeting, speak } = helpers;
  const { librivox, cards, dhdExtra, goforward } = await testdataUtterances();
  const printer = new MfccVoicePrints();

  // Enrolment: each enrolled voice printed from its turns in a meeting with another enrolled voice.
  const prints = new Map<string, GaussianStats>();
  // What known_speaker_references[] clips of /v1 give (2-10 s): each voice's CLIPS longest turns of 2 to 10 s,
  // the k-th of every voice making the k-th library (more trials than one clip per voice).
  const clips = new Map<string, GaussianStats[]>();
  const clipsOf = async (pcm: string, turns: Turn[]) => {
    const picked = turns
      .filter((t) => t.end - t.start >= 2 && t.end - t.start <= 10)
      .sort((a, b) => b.end - b.start - (a.end - a.start))
      .slice(0, CLIPS);
    return Promise.all(picked.map(async (turn) => pooled([(await printer.print(pcm, [turn], signal)).print])!));
  };
  const pairs: [Voice, Voice][] = [
    [ENROLLED[0]!, ENROLLED[1]!],
    [ENROLLED[2]!, ENROLLED[3]!],
    [ENROLLED[4]!, ENROLLED[0]!],
  ];
  for (const [i, pair] of pairs.entries()) {
    const meeting = await generatedMeeting(pair, 50 + i, { sentences: [...ENROL_SENTENCES, ...ENROL_SENTENCES] });
    const pcm = await pcmOf(meeting.wav);
    for (const voice of pair) {
      if (prints.has(voice)) continue;
      const turns = meeting.reference.filter((t) => t.speaker === voice);
      prints.set(voice, pooled([(await printer.print(pcm, turns, signal)).print])!);
      clips.set(voice, await clipsOf(pcm, turns));
    }
  }
  // Real people: librivox and cards from their first two recordings.
  const realEnrol = await conversation({ librivox: librivox.slice(0, 2), cards: cards.slice(0, 2) }, 20, 3);
  const realPcm = await pcmOf(realEnrol.wav);
  for (const person of ['librivox', 'cards']) {
    clips.set(
      person,
      await clipsOf(
        realPcm,
        realEnrol.reference.filter((t) => t.speaker === person),
      ),
    );
    prints.set(
      person,
      pooled([
        (
          await printer.print(
            realPcm,
            realEnrol.reference.filter((t) => t.speaker === person),
            signal,
          )
        ).print,
      ])!,
    );
  }
  const enrolledNames = new Set(prints.keys());
  const voices = [...prints].map(([name, stats]) => ({ voice: { speakerId: name, name, prints: [] as [] }, stats }));
  const enrolSeconds = [...prints.values()].map((s) => s.n / 100);
  console.log(
    `\nidentification — ${prints.size} voices enrolled (${Math.min(...enrolSeconds).toFixed(1)}-${Math.max(...enrolSeconds).toFixed(1)} s of speech each)`,
  );

  const real = async (people: Record<string, typeof librivox>, seconds: number, seed: number): Promise<Meeting> => {
    const c = await conversation(people, seconds, seed);
    return { name: Object.keys(people).join(' + '), wav: c.wav, reference: c.reference, speakers: 2 };
  };
  const tuningMeetings: Meeting[] = [];
  const tuningVoices = [...ENROLLED, ...STRANGERS];
  for (let seed = 100; seed < 116; seed++) {
    const pick = pickVoices(tuningVoices, seed, seed % 3 === 0 ? 3 : 2);
    tuningMeetings.push(await generatedMeeting(pick, seed));
  }
  tuningMeetings.push(await real({ librivox: librivox.slice(2), dhd: [goforward, ...dhdExtra] }, 40, 11));
  tuningMeetings.push(await real({ cards: cards.slice(2), dhd: dhdExtra }, 40, 12));

  const heldOutMeetings: Meeting[] = [];
  const heldOutVoices = [...ENROLLED, ...STRANGERS, ...HELD_OUT_STRANGERS];
  for (let seed = 200; seed < 216; seed++) {
    const pick = pickVoices(heldOutVoices, seed, seed % 3 === 0 ? 3 : 2);
    heldOutMeetings.push(await generatedMeeting(pick, seed, { sentences: HELD_OUT_SENTENCES }));
  }
  heldOutMeetings.push(await real({ librivox: librivox.slice(2).reverse(), cards: cards.slice(2) }, 40, 21));
  // One festival turn set alone and one held-out stranger alone: a file of one voice.
  heldOutMeetings.push(await aloneMeeting(speak, HELD_OUT_STRANGERS[0]!, HELD_OUT_SENTENCES.slice(0, 4)));

  const tuning = (await Promise.all(tuningMeetings.map((m) => separatedSpeakers(m, enrolledNames)))).flat();
  const heldOut = (await Promise.all(heldOutMeetings.map((m) => separatedSpeakers(m, enrolledNames)))).flat();

  // Distances on the tuning set: where the same voice and other voices fall.
  const same: number[] = [];
  const other: number[] = [];
  for (const speakers of tuning)
    for (const s of speakers)
      for (const v of voices) (v.voice.name === s.truth ? same : other).push(balancedDivergence(s.stats, v.stats));
  same.sort((a, b) => a - b);
  other.sort((a, b) => a - b);
  const q = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(3) ?? '-';
  console.log(
    `tuning distances: same voice median ${q(same, 0.5)}, max ${q(same, 1)}; other voices min ${q(other, 0)}, 5th percentile ${q(other, 0.05)}`,
  );

  const chosen = choose(tuning, [voices], DEFAULT_VOICE_MATCH);
  console.log(
    chosen
      ? `chosen on tuning: threshold ${chosen.threshold.toFixed(3)}, ratio ${chosen.ratio} (zero-error ratios ${chosen.ratios}), alone threshold ${chosen.aloneThreshold.toFixed(3)}; the product's: threshold ${DEFAULT_VOICE_MATCH.threshold}, ratio ${DEFAULT_VOICE_MATCH.ratio}, alone ${DEFAULT_VOICE_MATCH.aloneThreshold}`
      : 'no setting gives zero wrong names on the tuning meetings',
  );
  const pure = (sets: Scored[][]) => sets.flat().filter((s) => s.purity >= PURE).length;
  console.log(
    `separated speakers of one voice (>= ${PURE * 100}% of their speech): tuning ${pure(tuning)}/${tuning.flat().length}, held-out ${pure(heldOut)}/${heldOut.flat().length}; the others mix two voices the separation did not tell apart`,
  );
  // A name on a mixed speaker is wrong for much of its speech (the bench counts its majority voice as right),
  // so the share of enrolled speakers that are one voice is what a print can name right throughout (0092).
  const ceiling = (sets: Scored[][]) => {
    const enrolled = sets.flat().filter((s) => s.enrolled);
    return `${enrolled.filter((s) => s.purity >= PURE).length}/${enrolled.length} (${pct(enrolled.filter((s) => s.purity >= PURE).length, enrolled.length)})`;
  };
  console.log(
    `enrolled speakers of one voice, what a print can name right throughout: tuning ${ceiling(tuning)}, held-out ${ceiling(heldOut)}`,
  );
  console.log(
    '\nset (settings) | enrolled speakers | correct name | wrong name | no name | unenrolled speakers | false name',
  );
  for (const [label, settings] of [
    ['product', DEFAULT_VOICE_MATCH],
    ...(chosen ? [['chosen', chosen] as const] : []),
  ] as const) {
    console.log(row(`tuning, ${tuningMeetings.length} meetings (${label})`, score(tuning, voices, settings)));
    console.log(row(`held-out, ${heldOutMeetings.length} meetings (${label})`, score(heldOut, voices, settings)));
    console.log(row(`tuning, one-voice speakers (${label})`, score(tuning, voices, settings, true)));
    console.log(row(`held-out, one-voice speakers (${label})`, score(heldOut, voices, settings, true)));
    const a = settings.aloneThreshold;
    console.log(row(`tuning, each voice alone in the library (${label})`, alone(tuning, [voices], settings, a)));
    console.log(row(`held-out, each voice alone in the library (${label})`, alone(heldOut, [voices], settings, a)));
  }
  // known_speaker_references[] of /v1 (decision 0092): one short clip per voice is the library (CLIPS such
  // libraries, counts summed over them), with its own settings chosen by the same rule on the tuning meetings.
  const clipLibraries: Library[] = Array.from({ length: CLIPS }, (_, k) =>
    [...clips].flatMap(([name, own]) =>
      own[k] ? [{ voice: { speakerId: name, name, prints: [] as [] }, stats: own[k] }] : [],
    ),
  ).filter((library) => library.length > 1);
  const clipSeconds = [...clips.values()].flat().map((c) => c.n / 100);
  const clipChosen = choose(tuning, clipLibraries, REFERENCE_VOICE_MATCH);
  console.log(
    `\none clip per voice instead (${clipLibraries.length} libraries of ${clipLibraries.map((l) => l.length).join(', ')} voices, ${Math.min(...clipSeconds).toFixed(1)}-${Math.max(...clipSeconds).toFixed(1)} s of speech each): ` +
      (clipChosen
        ? `chosen on tuning: threshold ${clipChosen.threshold.toFixed(3)}, ratio ${clipChosen.ratio} (zero-error ratios ${clipChosen.ratios}), alone threshold ${clipChosen.aloneThreshold.toFixed(3)}; the product's: threshold ${REFERENCE_VOICE_MATCH.threshold}, ratio ${REFERENCE_VOICE_MATCH.ratio}, alone ${REFERENCE_VOICE_MATCH.aloneThreshold}`
        : 'no setting gives zero wrong names on the tuning meetings'),
  );
  for (const [label, settings] of [
    ['library settings', DEFAULT_VOICE_MATCH],
    ['reference settings', REFERENCE_VOICE_MATCH],
    ...(clipChosen ? [['chosen', clipChosen] as const] : []),
  ] as const) {
    console.log(row(`tuning, clips (${label})`, scoreEach(tuning, clipLibraries, settings)));
    console.log(row(`held-out, clips (${label})`, scoreEach(heldOut, clipLibraries, settings)));
    console.log(row(`tuning, one-voice speakers, clips (${label})`, scoreEach(tuning, clipLibraries, settings, true)));
    console.log(
      row(`held-out, one-voice speakers, clips (${label})`, scoreEach(heldOut, clipLibraries, settings, true)),
    );
    const a = settings.aloneThreshold;
    console.log(row(`tuning, each clip alone (${label})`, alone(tuning, clipLibraries, settings, a)));
    console.log(row(`held-out, each clip alone (${label})`, alone(heldOut, clipLibraries, settings, a)));
  }
  if (process.env.BENCH_VERBOSE) {
    for (const [set, meetings] of [
      ['tuning', tuning],
      ['held-out', heldOut],
    ] as const)
      for (const speakers of meetings)
        for (const s of speakers) {
          const d = voices
            .map((v) => ({ name: v.voice.name, d: balancedDivergence(s.stats, v.stats) }))
            .sort((a, b) => a.d - b.d);
          console.log(
            `${set} ${s.truth}${s.enrolled ? '' : ' (unenrolled)'} ${(s.stats.n / 100).toFixed(1)} s, purity ${s.purity.toFixed(2)}: ${d
              .slice(0, 3)
              .map((x) => `${x.name} ${x.d.toFixed(3)}`)
              .join(', ')}`,
          );
        }
  }
}

/**
 * Choice on the tuning meetings (decision 0084): no wrong and no false name; the most names; the lowest
 * threshold that gives them; then the middle of the range of ratios that keeps all that at this threshold
 * (the ratio furthest from both a false name and a lost one). A lone voice (a team of one, or a request
 * naming one known speaker): the largest threshold with no false name on tuning when each voice is, in turn,
 * the only one.
 */
function choose(
  tuning: Scored[][],
  libraries: Library[],
  base: VoiceMatchSettings,
): (VoiceMatchSettings & { ratios: string }) | null {
  const candidates: { settings: VoiceMatchSettings; counts: Counts }[] = [];
  for (let step = 2; step <= 80; step++)
    for (let r = 20; r <= 98; r += 2) {
      const settings = { ...base, threshold: step * 0.025, ratio: r / 100 };
      const counts = scoreEach(tuning, libraries, settings);
      if (counts.wrong === 0 && counts.falseNames === 0) candidates.push({ settings, counts });
    }
  if (candidates.length === 0) return null;
  const most = Math.max(0, ...candidates.map((c) => c.counts.correct));
  const top = candidates.filter((c) => c.counts.correct === most);
  const threshold = Math.min(...top.map((c) => c.settings.threshold));
  const ratios = top.filter((c) => c.settings.threshold === threshold).map((c) => c.settings.ratio);
  const ratio = Math.round(((Math.min(...ratios) + Math.max(...ratios)) / 2) * 100) / 100;
  let aloneThreshold = 0;
  for (let step = 1; step <= 80 && alone(tuning, libraries, base, step * 0.025).falseNames === 0; step++)
    aloneThreshold = step * 0.025;
  return { ...base, threshold, ratio, aloneThreshold, ratios: `${Math.min(...ratios)}-${Math.max(...ratios)}` };
}

/** The counts of each library, summed. */
function scoreEach(sets: Scored[][], libraries: Library[], settings: VoiceMatchSettings, pureOnly = false): Counts {
  const c: Counts = { enrolled: 0, correct: 0, wrong: 0, none: 0, strangers: 0, falseNames: 0 };
  for (const library of libraries) {
    // Enrolled means: in this library (a later clip library may lack a voice with too few turns).
    const inLibrary = new Set(library.map((v) => v.voice.name));
    const relative = sets.map((speakers) => speakers.map((s) => ({ ...s, enrolled: inLibrary.has(s.truth) })));
    const counts = score(relative, library, settings, pureOnly);
    for (const k of Object.keys(c) as (keyof Counts)[]) c[k] += counts[k];
  }
  return c;
}

/** Each voice of each library in turn as the only one, one-voice speakers only. */
function alone(sets: Scored[][], libraries: Library[], settings: VoiceMatchSettings, aloneThreshold: number): Counts {
  const c: Counts = { enrolled: 0, correct: 0, wrong: 0, none: 0, strangers: 0, falseNames: 0 };
  for (const v of libraries.flat()) {
    const counts = score(
      sets.map((speakers) => speakers.map((s) => ({ ...s, enrolled: s.truth === v.voice.name }))),
      [v],
      { ...settings, aloneThreshold },
      true,
    );
    for (const k of Object.keys(c) as (keyof Counts)[]) c[k] += counts[k];
  }
  return c;
}

/** `count` different voices of `pool`, by seed. */
function pickVoices(pool: readonly Voice[], seed: number, count: number): Voice[] {
  const order = pool.map((v, i) => ({ v, k: Math.sin(seed * 12.9898 + i * 78.233) }));
  return order
    .sort((a, b) => a.k - b.k)
    .slice(0, count)
    .map((o) => o.v);
}

async function aloneMeeting(speak: Helpers['speak'], voice: Voice, sentences: readonly string[]): Promise<Meeting> {
  const parts = await Promise.all(sentences.map((s) => speak(voice, s)));
  const gaps = parts.slice(1).map(() => 0.5);
  const reference: Turn[] = [];
  let t = 0;
  for (const p of parts) {
    const d = await durationOf(p);
    reference.push({ start: t, end: t + d, speaker: voice });
    t += d + 0.5;
  }
  return { name: `${voice} alone`, wav: await concatenate(parts, gaps), reference, speakers: 1 };
}
