// Which words the app marks as uncertain, and the order they are reviewed in (decision 0086). A word's
// confidence is the probability that it is right (the server's engines calibrate theirs), so one
// threshold serves every engine: below one half, the word is more likely wrong than right.

/** Words whose confidence is below this are underlined; bench:asr reports how often they are wrong. */
export const UNCERTAIN_BELOW = 0.5;

export function isUncertain(word: { confidence: number | null }): boolean {
  return word.confidence !== null && word.confidence < UNCERTAIN_BELOW;
}

/** Where an uncertain word is: its segment and word indexes, and its start time. */
export interface UncertainWordPlace {
  segmentIndex: number;
  wordIndex: number;
  start: number;
}

/** The next uncertain word, with its place among the transcript's (1-based) and how many there are. */
export interface UncertainWord extends UncertainWordPlace {
  ordinal: number;
  total: number;
}

interface Segments {
  readonly length: number;
  readonly [index: number]: { words: ReadonlyArray<{ start: number; confidence: number | null }> };
}

/** The uncertain words, in reading order. */
export function uncertainWords(segments: Segments): UncertainWordPlace[] {
  const all: UncertainWordPlace[] = [];
  for (let s = 0; s < segments.length; s++) {
    const words = segments[s]!.words;
    for (let w = 0; w < words.length; w++)
      if (isUncertain(words[w]!)) all.push({ segmentIndex: s, wordIndex: w, start: words[w]!.start });
  }
  return all;
}

/** A word starting this close after the playback position is the one being played, not the next. */
const SAME_PLACE_SECONDS = 0.01;

/**
 * The first uncertain word that starts after `time` (the playback position); after the last one, the
 * first again. Null when there are none.
 */
export function nextUncertainWord(segments: Segments, time: number): UncertainWord | null {
  const all = uncertainWords(segments);
  if (all.length === 0) return null;
  const index = all.findIndex((u) => u.start > time + SAME_PLACE_SECONDS);
  const at = index < 0 ? 0 : index;
  return { ...all[at]!, ordinal: at + 1, total: all.length };
}
