// The speaker-count rule (src-shared/speaker-count.ts, bounds from LIMITS) as an API error, worded once
// for every route that takes num_speakers, min_speakers and max_speakers.
import { LIMITS } from '../../src-shared/limits.js';
import { checkSpeakerCounts, type SpeakerCountField, type SpeakerCounts } from '../../src-shared/speaker-count.js';
import type { SpeakerOptions } from '../domain/transcription-pipeline.js';
import { errors } from './errors.js';

/** The wire names of the rule's fields, the same in the spec's JSON and OpenAI's form. */
export const SPEAKER_FIELD: Record<SpeakerCountField, 'num_speakers' | 'min_speakers' | 'max_speakers'> = {
  numSpeakers: 'num_speakers',
  minSpeakers: 'min_speakers',
  maxSpeakers: 'max_speakers',
};

/** Throws the rule's first problem with the counts, as a validation error on the field at fault. */
export function assertSpeakerCounts(counts: SpeakerCounts): void {
  const problem = checkSpeakerCounts(counts);
  if (!problem) return;
  const field = SPEAKER_FIELD[problem.field];
  switch (problem.reason) {
    case 'out-of-range':
      throw errors.validation(
        `${field} must be a whole number from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}; got ${counts[problem.field]}.`,
        field,
      );
    case 'min-above-max':
      throw errors.validation(
        `min_speakers (${counts.minSpeakers}) must not be greater than max_speakers (${counts.maxSpeakers}).`,
        field,
      );
    case 'outside-min-max':
      throw errors.validation(
        `num_speakers (${counts.numSpeakers}) must lie between min_speakers and max_speakers.`,
        field,
      );
  }
}

/** Whether any count was given: the caller asked for speaker labels. */
export function asksForSpeakers(counts: SpeakerCounts): boolean {
  return counts.numSpeakers !== null || counts.minSpeakers !== null || counts.maxSpeakers !== null;
}

/** The counts given, as the pipeline takes them (an unknown count is left out). */
export function speakerOptions(counts: SpeakerCounts): SpeakerOptions {
  const options: SpeakerOptions = {};
  for (const field of Object.keys(SPEAKER_FIELD) as SpeakerCountField[]) {
    const value = counts[field];
    if (value !== null) options[field] = value;
  }
  return options;
}
