// `diarization-high` with a speaker-embedding model installed (decision 0097): after the MFCC separation,
// speakers whose model embeddings say they are one voice are merged. The separation's own merge criterion
// (clustering.ts) stays as it is; this step sits after it, at the boundary where its turns become speakers, and
// only where the model has a say: quality "enhanced", no speaker count given, and a model whose catalogue entry
// sets `sameSpeakerSimilarity`. Without a model the turns pass through untouched.
import type { TimeRange } from '../../domain/voice-prints.js';
import type { SpeakerEmbeddingSpec } from '../../models/catalogue.js';
import { cosine, unit } from './onnx-speaker-embedding.js';
import { speakerLabel, type SeparateOptions, type SpeakerTurn } from './speaker-separation.js';

export interface SpeakerEmbedding {
  /** Unit length; empty when there was too little speech to embed. */
  embedding: Float32Array;
  speechSeconds: number;
}

/** What the merge needs of the installed model (EmbeddingVoicePrints provides it). */
export interface SpeakerEmbedder {
  /** Each speaker's embedding of its ranges by the installed model, with the model's settings; null: no model. */
  speakerEmbeddings(
    pcmPath: string,
    bySpeaker: ReadonlyMap<string, readonly TimeRange[]>,
    signal: AbortSignal,
  ): Promise<{ match: SpeakerEmbeddingSpec['match']; speakers: Map<string, SpeakerEmbedding> } | null>;
}

/** Turns after separation, before they label the recognized segments (speaker-stage.ts). */
export type TurnRefinement = (
  pcmPath: string,
  turns: SpeakerTurn[],
  options: SeparateOptions,
) => Promise<SpeakerTurn[]>;

export function mergeSpeakersByModel(embedder: SpeakerEmbedder): TurnRefinement {
  return async (pcmPath, turns, options) => {
    if (options.quality !== 'enhanced' || options.numSpeakers !== undefined) return turns;
    const bySpeaker = new Map<string, TimeRange[]>();
    for (const t of turns) bySpeaker.set(t.speaker, [...(bySpeaker.get(t.speaker) ?? []), t]);
    if (bySpeaker.size < 2) return turns;
    const found = await embedder.speakerEmbeddings(pcmPath, bySpeaker, options.signal);
    const threshold = found?.match.sameSpeakerSimilarity;
    if (!found || threshold === undefined) return turns;
    const speakers = [...found.speakers]
      .filter(([, s]) => s.embedding.length > 0 && s.speechSeconds >= found.match.minSpeechSeconds)
      .map(([label, s]) => ({ label, ...s }));
    const into = sameVoices(speakers, threshold, options.minSpeakers ?? 1);
    return relabel(turns, into);
  };
}

/**
 * Which speakers are one voice: average-linkage agglomeration on cosine similarity (each group's speech-weighted
 * mean embedding), the most similar pair first, while it reaches `threshold` and more than `minSpeakers` groups
 * remain. Returns speaker -> the speaker it is merged into (the group's first listed); unmerged speakers are absent.
 */
export function sameVoices(
  speakers: readonly { label: string; embedding: Float32Array; speechSeconds: number }[],
  threshold: number,
  minSpeakers: number,
): Map<string, string> {
  const groups = speakers.map((s) => ({
    labels: [s.label],
    sum: Float64Array.from(s.embedding, (x) => x * s.speechSeconds),
  }));
  const mean = (g: (typeof groups)[number]) => unit(Float32Array.from(g.sum));
  while (groups.length > Math.max(1, minSpeakers)) {
    let best: { i: number; j: number; similarity: number } | null = null;
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++) {
        const similarity = cosine(mean(groups[i]!), mean(groups[j]!));
        if (!best || similarity > best.similarity) best = { i, j, similarity };
      }
    if (!best || best.similarity < threshold) break;
    const [a, b] = [groups[best.i]!, groups[best.j]!];
    a.labels.push(...b.labels);
    b.sum.forEach((x, d) => (a.sum[d]! += x));
    groups.splice(best.j, 1);
  }
  const into = new Map<string, string>();
  for (const g of groups) for (const label of g.labels.slice(1)) into.set(label, g.labels[0]!);
  return into;
}

/** Turns with merged speakers renamed, neighbours of one speaker joined, labels renumbered by first appearance. */
export function relabel(turns: readonly SpeakerTurn[], into: ReadonlyMap<string, string>): SpeakerTurn[] {
  if (into.size === 0) return [...turns];
  const numbers = new Map<string, string>();
  const out: SpeakerTurn[] = [];
  for (const t of [...turns].sort((a, b) => a.start - b.start)) {
    const merged = into.get(t.speaker) ?? t.speaker;
    if (!numbers.has(merged)) numbers.set(merged, speakerLabel(numbers.size));
    const speaker = numbers.get(merged)!;
    const last = out.at(-1);
    if (last && last.speaker === speaker && t.start <= last.end + 1e-9) last.end = Math.max(last.end, t.end);
    else out.push({ start: t.start, end: t.end, speaker });
  }
  return out;
}
