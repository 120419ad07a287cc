// Voice prints from the embedded speaker separation's own features (decision 0065): the full-covariance
// Gaussian of the MFCCs c1..c19 over a voice's speech frames (pauses left out, as extractBlocks does for
// the separation), kept as its sufficient statistics: frame count, sums and the upper triangle of the cross
// products, 210 numbers. They describe the voice's spectral envelope and its spread; the words and the
// audio cannot be recovered from them.
//
// Two prints are compared by the likelihood test the separation uses to decide whether two clusters are
// one speaker (clustering.ts, GaussianStats.divergence), normalised by the balance of the two sides, so that
// a voice enrolled from a minute of speech is not judged closer to everyone than one enrolled from 5 s.
// A separated speaker is named only when its nearest voice is below the threshold and clearly nearer than
// the team's next-nearest voice (a ratio: the team's other voices are the cohort a distance is judged
// against, decision 0084); a team with a single voice to compare has no cohort and needs the stricter
// `aloneThreshold`. All three come from `npm run bench:speakers`, where a wrong name counts as worse than no
// name. A voice printed from a request's 2-10 s reference clip has its own, stricter set (decision 0092).
import type {
  EnrolledVoice,
  RecognizedVoice,
  TimeRange,
  VoicePrint,
  VoicePrinter,
  VoiceRecognitionStage,
} from '../../domain/voice-prints.js';
import { GaussianStats } from './clustering.js';
import { FRAMES_PER_SECOND, MfccExtractor } from './mfcc.js';
import { printEachPart } from './print-parts.js';
import { CEPSTRA, extractBlocks, TRI } from './speaker-features.js';

export const MFCC_PRINT_KIND = 'mfcc-gaussian-v1';

export interface VoiceMatchSettings {
  /** Largest balanced divergence at which a speaker is named, when the team has other voices to compare. */
  threshold: number;
  /** The nearest voice must be at most this fraction of the distance to the team's next-nearest voice. */
  ratio: number;
  /** Largest balanced divergence at which a speaker is named when only one voice is compared (no cohort). */
  aloneThreshold: number;
  /** A separated speaker with less speech than this (seconds) is not compared. */
  minSpeechSeconds: number;
}

/**
 * Chosen on bench:speakers' tuning meetings (decision 0084, re-chosen after 0091's separation); the held-out
 * ones are reported apart.
 */
export const DEFAULT_VOICE_MATCH: VoiceMatchSettings = {
  threshold: 0.75,
  ratio: 0.67,
  aloneThreshold: 0.3,
  minSpeechSeconds: 2,
};

/**
 * For voices printed from a request's known_speaker_references[] clip (2-10 s, decision 0092): chosen on the
 * same tuning meetings with one clip per voice as the library (re-chosen after 0091's separation, 0084).
 */
export const REFERENCE_VOICE_MATCH: VoiceMatchSettings = {
  threshold: 0.825,
  ratio: 0.58,
  aloneThreshold: 0.225,
  minSpeechSeconds: 2,
};

const BLOCK_SECONDS = 0.25;

export class MfccVoicePrints implements VoicePrinter, VoiceRecognitionStage {
  readonly kind = MFCC_PRINT_KIND;
  readonly name = 'voice-library';
  private readonly mfcc = new MfccExtractor({ coefficients: CEPSTRA + 1 });

  constructor(
    readonly settings: VoiceMatchSettings = DEFAULT_VOICE_MATCH,
    readonly referenceSettings: VoiceMatchSettings = REFERENCE_VOICE_MATCH,
  ) {}

  async print(pcmPath: string, ranges: readonly TimeRange[], signal: AbortSignal) {
    const stats = await this.statsOf(pcmPath, ranges, signal);
    return { print: toPrint(stats), speechSeconds: stats.n / FRAMES_PER_SECOND };
  }

  async printParts(audioPath: string, parts: readonly TimeRange[], workDir: string, signal: AbortSignal) {
    return printEachPart(audioPath, parts, workDir, signal, (pcm, ranges, s) => this.print(pcm, ranges, s));
  }

  async recognize(
    pcmPath: string,
    segments: ReadonlyArray<TimeRange & { speaker: string | null }>,
    voices: readonly EnrolledVoice[],
    signal: AbortSignal,
  ): Promise<Map<string, RecognizedVoice>> {
    const byLabel = new Map<string, TimeRange[]>();
    for (const s of segments) if (s.speaker !== null) byLabel.set(s.speaker, [...(byLabel.get(s.speaker) ?? []), s]);
    const enrolled = voices
      .map((v) => ({ voice: v, stats: pooled(v.prints.filter((p) => p.kind === this.kind)) }))
      .filter((v): v is { voice: EnrolledVoice; stats: GaussianStats } => v.stats !== null);
    const speakers: { label: string; stats: GaussianStats }[] = [];
    if (enrolled.length === 0) return new Map();
    for (const [label, ranges] of byLabel) {
      const stats = await this.statsOf(pcmPath, ranges, signal);
      if (stats.n >= this.settings.minSpeechSeconds * FRAMES_PER_SECOND) speakers.push({ label, stats });
    }
    return matchVoices(speakers, enrolled, this.settings, this.referenceSettings);
  }

  private async statsOf(pcmPath: string, ranges: readonly TimeRange[], signal: AbortSignal): Promise<GaussianStats> {
    const regions = mergeRanges(ranges);
    const blocks = await extractBlocks(this.mfcc, pcmPath, regions, BLOCK_SECONDS, signal, () => undefined);
    const stats = new GaussianStats();
    for (let b = 0; b < blocks.count; b++) stats.addBlock(blocks, b);
    return stats;
  }
}

/** Each speaker's distances to every voice, for the bench (which tunes the settings on them). */
export function voiceDistances(speaker: GaussianStats, voices: readonly { stats: GaussianStats }[]): number[] {
  return voices.map((v) => balancedDivergence(speaker, v.stats));
}

/**
 * The names: every (speaker, voice) pair by increasing distance, a voice and a speaker taken once; a pair is
 * accepted when under the threshold and at most `ratio` times the speaker's distance to the next-nearest
 * voice, or, when there is no other voice, under `aloneThreshold`. A voice printed from a reference clip is
 * judged with `referenceSettings` (decision 0092).
 */
export function matchVoices(
  speakers: readonly { label: string; stats: GaussianStats }[],
  voices: readonly { voice: EnrolledVoice; stats: GaussianStats }[],
  settings: VoiceMatchSettings,
  referenceSettings: VoiceMatchSettings = settings,
): Map<string, RecognizedVoice> {
  // The bias correction of small samples can take a distance below zero; a ratio needs them at zero or more.
  const distances = speakers.map((s) => voiceDistances(s.stats, voices).map((d) => Math.max(0, d)));
  const settingsOf = (v: number) => (voices[v]!.voice.fromReference ? referenceSettings : settings);
  // Without a second voice the ratio says nothing: the distance alone must be convincing.
  const thresholdOf = (v: number) => (voices.length > 1 ? settingsOf(v).threshold : settingsOf(v).aloneThreshold);
  const pairs = distances
    .flatMap((row, s) => row.map((d, v) => ({ s, v, d })))
    .filter((p) => p.d < thresholdOf(p.v))
    .sort((a, b) => a.d - b.d);
  const out = new Map<string, RecognizedVoice>();
  const usedVoices = new Set<number>();
  const usedSpeakers = new Set<number>();
  for (const { s, v, d } of pairs) {
    if (usedVoices.has(v) || usedSpeakers.has(s)) continue;
    const next = Math.min(...distances[s]!.filter((_, o) => o !== v), Infinity);
    // Strict: two voices at zero are a tie, not a match.
    if (!(d < settingsOf(v).ratio * next)) continue;
    usedVoices.add(v);
    usedSpeakers.add(s);
    const { speakerId, name } = voices[v]!.voice;
    const confidence = Math.round(Math.min(1, Math.max(0, 1 - d / (2 * thresholdOf(v)))) * 100) / 100;
    out.set(speakers[s]!.label, { speakerId, name, confidence });
  }
  return out;
}

/**
 * The separation's likelihood ratio between two sets of frames, normalised by 4 n1 n2 / n instead of 2n:
 * the same value for two equal sides, and no smaller when one side is much larger than the other.
 */
export function balancedDivergence(a: GaussianStats, b: GaussianStats): number {
  const n = a.n + b.n;
  if (a.n === 0 || b.n === 0) return Infinity;
  return (a.divergence(b) * 2 * n) / ((8 * a.n * b.n) / n);
}

export function toPrint(stats: GaussianStats): VoicePrint {
  return { kind: MFCC_PRINT_KIND, values: [stats.n, ...stats.sum, ...stats.cross] };
}

/** The statistics of a print (null: not of this kind or malformed). */
export function statsOfPrint(print: VoicePrint): GaussianStats | null {
  if (print.kind !== MFCC_PRINT_KIND || print.values.length !== 1 + CEPSTRA + TRI) return null;
  const stats = new GaussianStats();
  stats.n = print.values[0]!;
  stats.sum.set(print.values.slice(1, 1 + CEPSTRA));
  stats.cross.set(print.values.slice(1 + CEPSTRA));
  return stats;
}

/** All of a voice's prints as one Gaussian (null: none of this kind). */
export function pooled(prints: readonly VoicePrint[]): GaussianStats | null {
  const all = prints.map(statsOfPrint).filter((s): s is GaussianStats => s !== null && s.n > 0);
  if (all.length === 0) return null;
  const sum = new GaussianStats();
  for (const s of all) sum.add(s);
  return sum;
}

/** Sorted, overlaps joined. */
function mergeRanges(ranges: readonly TimeRange[]): TimeRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).sort((a, b) => a.start - b.start);
  const out: TimeRange[] = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && r.start <= last.end) last.end = Math.max(last.end, r.end);
    else out.push({ start: r.start, end: r.end });
  }
  return out;
}
