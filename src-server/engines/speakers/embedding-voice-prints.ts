// Voice prints from a speaker-embedding model when one is installed (decision 0097), the MFCC prints
// (decision 0065) when none is. The model is looked for on every use, so one downloaded while the server
// runs takes over from the next enrolment or transcription on.
//
// A print is the model's unit-length embedding of the speech, after the seconds of speech it holds
// ([seconds, ...embedding]); its kind names the model and its checksum, so that prints of another model (or
// the MFCC ones) are never compared with it. A voice's prints pool into their speech-weighted mean. A
// separated speaker is named by cosine similarity under the model's own settings (catalogue `match`): the
// nearest voice must reach `minSimilarity` and be clearly nearer than the team's next voice (its distance,
// 1 - similarity, at most `ratio` times the next one's); with a single voice to compare, `aloneMinSimilarity`.
// Voices enrolled before the model was installed have only MFCC prints: they are still recognized, by the
// MFCC prints, among the speakers the model did not name.
import type {
  EnrolledVoice,
  RecognizedVoice,
  TimeRange,
  VoicePrint,
  VoicePrinter,
  VoiceRecognitionStage,
} from '../../domain/voice-prints.js';
import fs from 'node:fs';
import type { ModelEntry, SpeakerEmbeddingSpec } from '../../models/catalogue.js';
import type { SpeakerEmbedder, SpeakerEmbedding } from './embedding-speaker-merge.js';
import { MfccVoicePrints } from './mfcc-voice-prints.js';
import { printEachPart } from './print-parts.js';
import { cosine, OnnxSpeakerEmbedding, unit } from './onnx-speaker-embedding.js';

/** What the prints need of the speaker-model catalogue (a ModelManager over speaker-models.ts's entries). */
export interface SpeakerModelSource {
  readonly catalogue: readonly ModelEntry[];
  isInstalled(entry: ModelEntry): boolean;
  damageOf(entry: ModelEntry): string | null;
  pathOf(entry: ModelEntry): string;
}

export function embeddingPrintKind(entry: ModelEntry): string {
  return `embedding:${entry.name}:${entry.sha256.slice(0, 12)}`;
}

export class EmbeddingVoicePrints implements VoicePrinter, VoiceRecognitionStage, SpeakerEmbedder {
  readonly name = 'voice-library';
  private loaded: { file: string; kind: string; model: Promise<OnnxSpeakerEmbedding> } | undefined;
  private checked: { stamp: string; ok: boolean } | undefined;

  /** Model files already reported as unloadable (once each). */
  private readonly reported = new Set<string>();

  constructor(
    private readonly models: SpeakerModelSource,
    readonly fallback: MfccVoicePrints = new MfccVoicePrints(),
    private readonly logger?: { warn(obj: object, message: string): void },
  ) {}

  /** The kind of the prints made now: the installed model's, else the MFCC prints'. */
  get kind(): string {
    const entry = this.installed();
    return entry ? embeddingPrintKind(entry) : this.fallback.kind;
  }

  /** The first catalogue model installed whole (size, and a file of the model's format), or undefined. */
  private installed(): (ModelEntry & { embedding: SpeakerEmbeddingSpec }) | undefined {
    return this.models.catalogue.find(
      (m): m is ModelEntry & { embedding: SpeakerEmbeddingSpec } =>
        m.embedding !== undefined && this.models.isInstalled(m) && this.loadable(m),
    );
  }

  /** Whether the file passes its format's check; asked again only when the file changes (the check reads it all). */
  private loadable(entry: ModelEntry): boolean {
    const file = this.models.pathOf(entry);
    let stamp: string;
    try {
      const stat = fs.statSync(file);
      stamp = `${file}\n${stat.size}\n${stat.mtimeMs}`;
    } catch {
      return false;
    }
    if (this.checked?.stamp !== stamp) this.checked = { stamp, ok: this.models.damageOf(entry) === null };
    return this.checked.ok;
  }

  private async model(): Promise<{ model: OnnxSpeakerEmbedding; kind: string; entry: ModelEntry } | null> {
    const entry = this.installed();
    if (!entry) return null;
    const file = this.models.pathOf(entry);
    const kind = embeddingPrintKind(entry);
    if (this.loaded?.file !== file || this.loaded.kind !== kind) {
      this.loaded = { file, kind, model: OnnxSpeakerEmbedding.load(file, entry.embedding) };
    }
    try {
      return { model: await this.loaded.model, kind, entry };
    } catch (error) {
      // A model onnxruntime cannot run is as if none were installed: the MFCC prints still name speakers, and a
      // transcription never fails for an optional stage. The operator learns it once, from the log.
      if (!this.reported.has(kind)) {
        this.reported.add(kind);
        this.logger?.warn(
          { model: entry.name, detail: (error as { detail?: string }).detail ?? String(error) },
          'speaker model cannot be loaded: voice prints use MFCC statistics (delete it and download it again)',
        );
      }
      return null;
    }
  }

  async print(pcmPath: string, ranges: readonly TimeRange[], signal: AbortSignal) {
    const current = await this.model();
    if (!current) return this.fallback.print(pcmPath, ranges, signal);
    const { embedding, speechSeconds } = await current.model.embedPcm(pcmPath, mergeRanges(ranges), signal);
    return { print: { kind: current.kind, values: [speechSeconds, ...embedding] }, speechSeconds };
  }

  async printParts(audioPath: string, parts: readonly TimeRange[], workDir: string, signal: AbortSignal) {
    if (!(await this.model())) return this.fallback.printParts(audioPath, parts, workDir, signal);
    return printEachPart(audioPath, parts, workDir, signal, (pcm, ranges, s) => this.print(pcm, ranges, s));
  }

  async recognize(
    pcmPath: string,
    segments: ReadonlyArray<TimeRange & { speaker: string | null }>,
    voices: readonly EnrolledVoice[],
    signal: AbortSignal,
  ): Promise<Map<string, RecognizedVoice>> {
    const current = await this.model();
    if (!current) return this.fallback.recognize(pcmPath, segments, voices, signal);
    const match = current.entry.embedding!.match;
    const enrolled = voices
      .map((voice) => ({ voice, embedding: pooledEmbedding(voice.prints, current.kind) }))
      .filter((v): v is { voice: EnrolledVoice; embedding: Float32Array } => v.embedding !== null);
    const out = new Map<string, RecognizedVoice>();
    if (enrolled.length > 0) {
      const byLabel = new Map<string, TimeRange[]>();
      for (const s of segments) if (s.speaker !== null) byLabel.set(s.speaker, [...(byLabel.get(s.speaker) ?? []), s]);
      const speakers: { label: string; embedding: Float32Array }[] = [];
      for (const [label, ranges] of byLabel) {
        const { embedding, speechSeconds } = await current.model.embedPcm(pcmPath, mergeRanges(ranges), signal);
        if (embedding.length > 0 && speechSeconds >= match.minSpeechSeconds) speakers.push({ label, embedding });
      }
      for (const [label, voice] of matchEmbeddings(speakers, enrolled, match)) out.set(label, voice);
    }
    // Voices printed before the model was installed: by their MFCC prints, among the speakers still unnamed.
    const older = voices.filter((v) => !enrolled.some((e) => e.voice === v));
    if (older.length > 0) {
      const unnamed = segments.filter((s) => s.speaker !== null && !out.has(s.speaker));
      for (const [label, voice] of await this.fallback.recognize(pcmPath, unnamed, older, signal))
        out.set(label, voice);
    }
    return out;
  }

  /** Each separated speaker's embedding by the installed model, for diarization-high (embedding-speaker-merge.ts). */
  async speakerEmbeddings(
    pcmPath: string,
    bySpeaker: ReadonlyMap<string, readonly TimeRange[]>,
    signal: AbortSignal,
  ): Promise<{ match: SpeakerEmbeddingSpec['match']; speakers: Map<string, SpeakerEmbedding> } | null> {
    const current = await this.model();
    if (!current) return null;
    const speakers = new Map<string, SpeakerEmbedding>();
    for (const [label, ranges] of bySpeaker)
      speakers.set(label, await current.model.embedPcm(pcmPath, mergeRanges(ranges), signal));
    return { match: current.entry.embedding!.match, speakers };
  }
}

/** The speech-weighted mean of a voice's prints of `kind`, at unit length (null: none). */
export function pooledEmbedding(prints: readonly VoicePrint[], kind: string): Float32Array | null {
  let sum: Float64Array | null = null;
  for (const p of prints) {
    if (p.kind !== kind || p.values.length < 2) continue;
    const [seconds, ...values] = p.values;
    if (!(seconds! > 0)) continue;
    sum ??= new Float64Array(values.length);
    if (values.length !== sum.length) continue;
    values.forEach((x, d) => (sum![d]! += x * seconds!));
  }
  return sum ? unit(Float32Array.from(sum)) : null;
}

/**
 * The names: every (speaker, voice) pair by decreasing similarity, a voice and a speaker taken once; a pair is
 * accepted when its similarity reaches `minSimilarity` and its distance (1 - similarity) is at most `ratio`
 * times the speaker's distance to the next-nearest voice, or, when there is no other voice, when it reaches
 * `aloneMinSimilarity`. Confidence: 0.5 at the threshold, 1 for identical embeddings.
 */
export function matchEmbeddings(
  speakers: readonly { label: string; embedding: Float32Array }[],
  voices: readonly { voice: EnrolledVoice; embedding: Float32Array }[],
  match: SpeakerEmbeddingSpec['match'],
): Map<string, RecognizedVoice> {
  const threshold = voices.length > 1 ? match.minSimilarity : match.aloneMinSimilarity;
  const similarity = speakers.map((s) => voices.map((v) => cosine(s.embedding, v.embedding)));
  const pairs = similarity
    .flatMap((row, s) => row.map((sim, v) => ({ s, v, sim })))
    .filter((p) => p.sim >= threshold)
    .sort((a, b) => b.sim - a.sim);
  const out = new Map<string, RecognizedVoice>();
  const usedVoices = new Set<number>();
  const usedSpeakers = new Set<number>();
  for (const { s, v, sim } of pairs) {
    if (usedVoices.has(v) || usedSpeakers.has(s)) continue;
    const next = Math.max(...similarity[s]!.filter((_, o) => o !== v), -Infinity);
    if (next > -Infinity && !(1 - sim < match.ratio * (1 - next))) continue;
    usedVoices.add(v);
    usedSpeakers.add(s);
    const confidence =
      Math.round(Math.min(1, Math.max(0, 0.5 + (0.5 * (sim - threshold)) / Math.max(1e-6, 1 - threshold))) * 100) / 100;
    out.set(speakers[s]!.label, { speakerId: voices[v]!.voice.speakerId, name: voices[v]!.voice.name, confidence });
  }
  return out;
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
