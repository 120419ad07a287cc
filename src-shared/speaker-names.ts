// What a speaker is called, in one place for the transcript view, the timeline, the analyses and every
// export. A transcript's segments keep the engine's labels ("SPEAKER_1"); the user's names are a
// separate map from label to name. A label the user has not named is shown as "Speaker N" (in the UI's
// language), N its number (`speakerNumbers`): SPEAKER_n is "Speaker n", so the app's names match the labels
// the server's subtitles and exports show, and a speaker added by an edit never renumbers the others.
import type { UiLanguage } from './ipc-contract.js';

/** The word before the number in a default speaker name. */
export const SPEAKER_WORD: Record<UiLanguage, string> = { en: 'Speaker', ja: '話者' };

/** Speaker labels in order of first appearance. */
export function speakerOrder(segments: ReadonlyArray<{ speaker: string | null }>): string[] {
  const seen = new Set<string>();
  for (const s of segments) if (s.speaker) seen.add(s.speaker);
  return [...seen];
}

const NUMBERED = /^SPEAKER_([1-9]\d{0,5})$/;

/**
 * Each label's number: SPEAKER_n is n (the separation stage numbers speakers in order of first appearance);
 * any other label takes the lowest number no SPEAKER_n holds, in the order given. A new speaker
 * (`nextSpeakerLabel`) takes a number above them all, so it never moves another label's number.
 */
export function speakerNumbers(labels: Iterable<string>): Map<string, number> {
  const numbers = new Map<string, number>();
  const taken = new Set<number>();
  const others: string[] = [];
  for (const label of labels) {
    if (numbers.has(label) || others.includes(label)) continue;
    const n = NUMBERED.exec(label);
    if (n) {
      numbers.set(label, Number(n[1]));
      taken.add(Number(n[1]));
    } else others.push(label);
  }
  let next = 1;
  for (const label of others) {
    while (taken.has(next)) next++;
    numbers.set(label, next);
    taken.add(next);
  }
  return numbers;
}

/**
 * Labels by their numbers (`speakerNumbers`): Speaker 1, Speaker 2, Speaker 3 however they first speak, so a
 * speaker added by a split lists after the others, and naming a speaker never moves it. What the timeline's
 * lanes are ordered by.
 */
export function speakersByNumber(labels: readonly string[]): string[] {
  const numbers = speakerNumbers(labels);
  return [...new Set(labels)].sort((a, b) => numbers.get(a)! - numbers.get(b)!);
}

/**
 * The label a new speaker gets: SPEAKER_<n> one past the highest number among `labels` (the separation stage's
 * own naming), so two apps adding a speaker to the same revision both mean the same label, and the new
 * speaker's number is free.
 */
export function nextSpeakerLabel(labels: Iterable<string>): string {
  return `SPEAKER_${Math.max(0, ...speakerNumbers(labels).values()) + 1}`;
}

/**
 * Names the server recognized from the team's voice library (segments' speaker_name, decision 0065), by
 * label: the first recognized segment of a label names it. The user's names come over these.
 */
export function recognizedSpeakerNames(
  segments: ReadonlyArray<{ speaker: string | null; speaker_name?: string }>,
): Record<string, string> {
  const names: Record<string, string> = {};
  for (const s of segments) {
    const name = s.speaker_name?.trim();
    if (s.speaker && name && !(s.speaker in names)) names[s.speaker] = name;
  }
  return names;
}

/**
 * What a transcript calls its speakers, by label: the team's names (`speaker_names`) over the voices the
 * server recognized. Labels with neither are absent. What the summaries name owners by.
 */
export function transcriptSpeakerNames(document: {
  segments: ReadonlyArray<{ speaker: string | null; speaker_name?: string }>;
  speaker_names?: Readonly<Record<string, string>>;
}): Record<string, string> {
  const names = recognizedSpeakerNames(document.segments);
  for (const [label, name] of Object.entries(document.speaker_names ?? {})) if (name.trim()) names[label] = name.trim();
  return names;
}

/** The user's name for a label, or "Speaker N" (its number); a label outside the transcript stays as it is. */
export function speakerDisplayName(
  label: string,
  names: Readonly<Record<string, string>>,
  speakers: readonly string[],
  word: string,
): string {
  const named = names[label]?.trim();
  if (named) return named;
  const number = speakerNumbers(speakers).get(label);
  return number === undefined ? label : `${word} ${number}`;
}

/** The document with every label replaced by its display name: what exports show. */
export function withSpeakerNames<S extends { speaker: string | null }, D extends { segments: S[] }>(
  document: D,
  names: Readonly<Record<string, string>>,
  word: string,
): D {
  const speakers = speakerOrder(document.segments);
  return {
    ...document,
    segments: document.segments.map((s) =>
      s.speaker === null ? s : { ...s, speaker: speakerDisplayName(s.speaker, names, speakers, word) },
    ),
  };
}
