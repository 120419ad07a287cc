// The speaker-count rule, once: the server's upload route, the IPC validation in main and the upload
// form in the renderer ask this function. It answers a reason code, not text, so each layer words
// the message in its own terms and language.
import { LIMITS } from './limits.js';

export interface SpeakerCounts {
  numSpeakers: number | null;
  minSpeakers: number | null;
  maxSpeakers: number | null;
}

export type SpeakerCountField = keyof SpeakerCounts;

export type SpeakerCountReason =
  /** Not a whole number within LIMITS.speakers. */
  | 'out-of-range'
  /** minSpeakers is above maxSpeakers. */
  | 'min-above-max'
  /** numSpeakers lies outside minSpeakers..maxSpeakers. */
  | 'outside-min-max';

export interface SpeakerCountProblem {
  field: SpeakerCountField;
  reason: SpeakerCountReason;
}

const FIELDS: readonly SpeakerCountField[] = ['numSpeakers', 'minSpeakers', 'maxSpeakers'];

export function isSpeakerCount(value: number): boolean {
  return Number.isInteger(value) && value >= LIMITS.speakers.min && value <= LIMITS.speakers.max;
}

/** The first problem with the counts (null = unknown, the engine decides), or null when they hold. */
export function checkSpeakerCounts(counts: SpeakerCounts): SpeakerCountProblem | null {
  for (const field of FIELDS) {
    const value = counts[field];
    if (value !== null && !isSpeakerCount(value)) return { field, reason: 'out-of-range' };
  }
  const { numSpeakers: n, minSpeakers: min, maxSpeakers: max } = counts;
  if (min !== null && max !== null && min > max) return { field: 'minSpeakers', reason: 'min-above-max' };
  if (n !== null && ((min !== null && n < min) || (max !== null && n > max)))
    return { field: 'numSpeakers', reason: 'outside-min-max' };
  return null;
}
