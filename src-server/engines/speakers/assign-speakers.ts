// Labels recognized segments with the speaker turns of a separation: each word goes to the turn it
// overlaps most (or, between turns, the nearest one), and a segment whose words fall into turns of
// different speakers is split at the speaker change. Pure.
import type { RecognizedSegment, RecognizedWord } from '../speech/speech-engine.js';
import type { SpeakerTurn } from './speaker-separation.js';

export interface SpeakerSegment extends RecognizedSegment {
  /** null when there are no turns at all. */
  speaker: string | null;
}

/** The speaker of the interval [start, end): most overlap, else the nearest turn; null without turns. */
export function speakerAt(turns: readonly SpeakerTurn[], start: number, end: number): string | null {
  let best: string | null = null;
  let bestOverlap = 0;
  let nearest: string | null = null;
  let nearestDistance = Infinity;
  const mid = (start + end) / 2;
  for (const t of turns) {
    const overlap = Math.min(end, t.end) - Math.max(start, t.start);
    if (overlap > bestOverlap) [best, bestOverlap] = [t.speaker, overlap];
    const distance = mid < t.start ? t.start - mid : mid > t.end ? mid - t.end : 0;
    if (distance < nearestDistance) [nearest, nearestDistance] = [t.speaker, distance];
  }
  return best ?? nearest;
}

export function assignSpeakers(
  segments: readonly RecognizedSegment[],
  turns: readonly SpeakerTurn[],
): SpeakerSegment[] {
  const sorted = [...turns].sort((a, b) => a.start - b.start);
  const out: SpeakerSegment[] = [];
  for (const segment of segments) {
    if (segment.words.length === 0) {
      out.push({ ...segment, words: [], speaker: speakerAt(sorted, segment.start, segment.end) });
      continue;
    }
    // Runs of consecutive words with the same speaker.
    const runs: { speaker: string | null; words: RecognizedWord[] }[] = [];
    for (const word of segment.words) {
      // A zero-length word still has a position.
      const speaker = speakerAt(sorted, word.start, Math.max(word.end, word.start + 1e-6));
      const last = runs.at(-1);
      if (last && last.speaker === speaker) last.words.push(word);
      else runs.push({ speaker, words: [word] });
    }
    runs.forEach((run, i) => {
      out.push({
        start: i === 0 ? segment.start : run.words[0]!.start,
        end: i === runs.length - 1 ? segment.end : run.words.at(-1)!.end,
        words: run.words,
        speaker: run.speaker,
      });
    });
  }
  return out;
}
