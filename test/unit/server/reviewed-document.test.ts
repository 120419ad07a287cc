import { describe, expect, it } from 'vitest';
import type { ReviewRepository } from '../../../src-server/db/review-repository.js';
import { reviewedDocument } from '../../../src-server/jobs/analysis-job.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';
import { encodeReview, applyOperation } from '../../../src-shared/transcript-editing.js';

const document: TranscriptDocument = {
  transcription_id: 't1',
  text: 'Hello there. How are you?',
  language: 'en',
  duration: 5,
  speaking_duration: 5,
  segments: [
    {
      id: 0,
      start: 0,
      end: 2,
      speaker: 'SPEAKER_1',
      text: 'Hello there.',
      words: [
        { word: 'Hello', start: 0, end: 1, confidence: 1 },
        { word: 'there.', start: 1, end: 2, confidence: 1 },
      ],
    },
    {
      id: 1,
      start: 2,
      end: 5,
      speaker: 'SPEAKER_2',
      text: 'How are you?',
      words: [
        { word: 'How', start: 2, end: 3, confidence: 1 },
        { word: 'are', start: 3, end: 4, confidence: 1 },
        { word: 'you?', start: 4, end: 5, confidence: 1 },
      ],
    },
  ],
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
};

/** Only the review store is replaced: the mapping is what this test is about. */
const reviews = (text: string | null): ReviewRepository => ({ get: async () => text, save: async () => {} });

describe('analyses read the corrected transcript', () => {
  it('maps a review saved by the app, structure included, onto the document', async () => {
    const merged = applyOperation(
      document.segments,
      { kind: 'merge', segmentId: 0 },
      { language: 'en', speakers: new Set(['SPEAKER_1', 'SPEAKER_2']) },
    );
    if (!merged.ok) throw new Error(merged.message);
    const review = encodeReview(
      document,
      merged.segments.map((s) => ({ ...s, text: s.text.replace('there', 'everyone') })),
    );
    const read = await reviewedDocument(document, reviews(review), 't1');
    expect(read.text).toBe('Hello everyone. How are you?');
    expect(read.segments).toHaveLength(1);
  });

  it('keeps the recognized document when there is no review, or one of another shape', async () => {
    expect(await reviewedDocument(document, reviews(null), 't1')).toBe(document);
    expect(await reviewedDocument(document, reviews('free text in one line'), 't1')).toBe(document);
    expect(await reviewedDocument(document, undefined, 't1')).toBe(document);
  });
});
