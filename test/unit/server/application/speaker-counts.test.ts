import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../../src-shared/limits.js';
import {
  asksForSpeakers,
  assertSpeakerCounts,
  speakerOptions,
} from '../../../../src-server/application/speaker-counts.js';
import { AppError } from '../../../../src-server/application/errors.js';

const none = { numSpeakers: null, minSpeakers: null, maxSpeakers: null };

function refusal(counts: Parameters<typeof assertSpeakerCounts>[0]): AppError {
  try {
    assertSpeakerCounts(counts);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the speaker-count rule as an API error', () => {
  it(`takes counts from ${LIMITS.speakers.min} to ${LIMITS.speakers.max}, or none`, () => {
    expect(() => assertSpeakerCounts(none)).not.toThrow();
    expect(() => assertSpeakerCounts({ ...none, numSpeakers: LIMITS.speakers.max })).not.toThrow();
    expect(() => assertSpeakerCounts({ numSpeakers: 3, minSpeakers: 2, maxSpeakers: 4 })).not.toThrow();
  });

  it('refuses a count out of range, naming the field and what was sent', () => {
    const past = refusal({ ...none, maxSpeakers: LIMITS.speakers.max + 1 });
    expect(past).toMatchObject({ code: 'VALIDATION_FAILED', field: 'max_speakers' });
    expect(past.message).toBe(
      `max_speakers must be a whole number from 1 to ${LIMITS.speakers.max}; got ${LIMITS.speakers.max + 1}.`,
    );
    expect(refusal({ ...none, numSpeakers: 2.5 }).message).toMatch(/got 2\.5\.$/);
    expect(refusal({ ...none, minSpeakers: 0 }).field).toBe('min_speakers');
  });

  it('refuses min above max, and num outside them', () => {
    expect(refusal({ ...none, minSpeakers: 5, maxSpeakers: 2 })).toMatchObject({
      field: 'min_speakers',
      message: 'min_speakers (5) must not be greater than max_speakers (2).',
    });
    expect(refusal({ numSpeakers: 6, minSpeakers: 2, maxSpeakers: 4 }).field).toBe('num_speakers');
  });

  it('tells whether speakers were asked for, and gives the pipeline only the counts given', () => {
    expect(asksForSpeakers(none)).toBe(false);
    expect(asksForSpeakers({ ...none, minSpeakers: 2 })).toBe(true);
    expect(speakerOptions({ ...none, minSpeakers: 2 })).toEqual({ minSpeakers: 2 });
  });
});
