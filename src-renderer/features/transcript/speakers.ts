// Speaker colours and display names, shared by the transcript, the timeline and the analyses.
import { speakerDisplayName, speakerNumbers } from '../../../src-shared/speaker-names';

export { speakerOrder } from '../../../src-shared/speaker-names';
const PALETTE = ['#2f6fdf', '#d9622b', '#2a9d6f', '#9b4dca', '#c23b5a', '#b08900', '#1f8fa3', '#6b7280'];

export function speakerColor(speakers: string[], speaker: string | null): string {
  if (!speaker) return PALETTE[0]!;
  // By the speaker's number, as the name is: a speaker added by an edit leaves the others' colours alone.
  const number = speakerNumbers(speakers).get(speaker) ?? 1;
  return PALETTE[(number - 1) % PALETTE.length]!;
}

/** "Speaker 1", "Speaker 2"... by the speakers' numbers (`speakerNumbers`), unless the user named them. */
export function speakerName(
  speaker: string | null,
  names: Record<string, string>,
  fallback: string,
  speakers: string[],
): string {
  return speaker ? speakerDisplayName(speaker, names, speakers, fallback) : fallback;
}
