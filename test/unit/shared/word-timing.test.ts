import { describe, expect, it } from 'vitest';
import { withSpeakerNames } from '../../../src-shared/speaker-names.js';
import { applyOperations, decodeReview, encodeReview } from '../../../src-shared/transcript-editing.js';
import { alignedSteps, alignWords, retimeWords } from '../../../src-shared/word-timing.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';

const segment = {
  start: 1,
  end: 4,
  words: [
    { word: 'the', start: 1, end: 1.2, confidence: 0.9 },
    { word: 'budget', start: 1.2, end: 1.8, confidence: 0.8 },
    { word: 'meeting', start: 1.8, end: 2.4, confidence: 0.7 },
    { word: 'is', start: 2.5, end: 2.6, confidence: 0.9 },
    { word: 'friday', start: 2.6, end: 3.4, confidence: 0.6 },
  ],
};

describe('word timing through corrections', () => {
  it('aligns words ignoring case and surrounding punctuation', () => {
    expect(alignWords(['the', 'budget', 'meeting'], ['The', 'budget,', 'review'])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('keeps the times of unchanged words and spreads a replaced word over the time it replaces', () => {
    const words = retimeWords(segment, 'The budget review is on Friday.');
    expect(words.map((w) => w.word)).toEqual(['The', 'budget', 'review', 'is', 'on', 'Friday.']);
    expect(words[0]).toEqual({ word: 'The', start: 1, end: 1.2, confidence: 0.9 });
    expect(words[2]).toEqual({ word: 'review', start: 1.8, end: 2.4, confidence: null });
    // "on" is new between "is" (ends 2.6) and "Friday" (starts 2.6): a zero-length slot at 2.6.
    expect(words[4]).toMatchObject({ word: 'on', start: 2.6, end: 2.6, confidence: null });
    expect(words[5]).toEqual({ word: 'Friday.', start: 2.6, end: 3.4, confidence: 0.6 });
  });

  it('shares one replaced span between several new words in proportion to their length', () => {
    const words = retimeWords(segment, 'the annual plan meeting is friday');
    expect(words[1]).toMatchObject({ word: 'annual', start: 1.2, end: 1.56 });
    expect(words[2]).toMatchObject({ word: 'plan', start: 1.56, end: 1.8 });
  });

  it('uses the segment bounds for words before the first match and when there were no words', () => {
    expect(retimeWords({ start: 5, end: 7, words: [] }, 'hello there')).toEqual([
      { word: 'hello', start: 5, end: 6.0, confidence: null },
      { word: 'there', start: 6.0, end: 7, confidence: null },
    ]);
    expect(retimeWords(segment, 'so the budget meeting is friday')[0]).toMatchObject({ word: 'so', start: 1, end: 1 });
    expect(retimeWords(segment, '   ')).toEqual([]);
  });

  it('round-trips corrections through the review text, one line per segment', () => {
    const doc: TranscriptDocument = {
      transcription_id: 't',
      text: 'the budget meeting is friday see you',
      language: 'en',
      duration: 10,
      speaking_duration: 5,
      segments: [
        { id: 0, start: 1, end: 4, speaker: 'SPEAKER_1', text: 'the budget meeting is friday', words: segment.words },
        { id: 1, start: 5, end: 6, speaker: 'SPEAKER_2', text: 'see you', words: [] },
      ],
      replacements: [],
      engine: { name: 'x', model: 'x', transcription_model: 'default' },
      created_at: 'now',
    };
    const edited = applyOperations(doc, [{ kind: 'text', segmentId: 1, text: 'See you then' }]);
    expect(edited.ok).toBe(true);
    const shown = edited.ok ? edited.document : doc;
    // Speakers keep their labels: a name is looked up, never written over the label (issue 12).
    expect(shown.segments[1]).toMatchObject({ speaker: 'SPEAKER_2', text: 'See you then' });
    expect(withSpeakerNames(shown, { SPEAKER_2: 'Bob' }, 'Speaker').segments.map((s) => s.speaker)).toEqual([
      'Speaker 1',
      'Bob',
    ]);
    expect(shown.text).toBe('the budget meeting is friday See you then');
    const review = encodeReview(doc, shown.segments);
    expect(review).toBe('the budget meeting is friday\nSee you then');
    expect(decodeReview(doc, review)).toEqual(shown.segments);
    expect(decodeReview(doc, 'one line only')).toBeNull();
    // Back to the server's text: the edit disappears.
    const reverted = applyOperations(shown, [{ kind: 'text', segmentId: 1, text: 'see you' }]);
    const back = encodeReview(doc, reverted.ok ? reverted.document.segments : shown.segments);
    expect(back).toBe('the budget meeting is friday\nsee you');
    expect(decodeReview(doc, back)).toEqual(doc.segments);
  });
});

describe('alignedSteps', () => {
  it('walks both sequences in order: matches together, each side’s own words between them', () => {
    const steps = alignedSteps(['the', 'Lezo', 'like', 'report'], ['please', 'the', 'report', 'now'], (w) =>
      w.toLowerCase(),
    );
    expect(steps).toEqual([
      { b: 'please' },
      { a: 'the', b: 'the' },
      { a: 'Lezo' },
      { a: 'like' },
      { a: 'report', b: 'report' },
      { b: 'now' },
    ]);
    expect(alignedSteps([], ['a'], (w) => w)).toEqual([{ b: 'a' }]);
    expect(alignedSteps(['A'], ['a'], (w) => w.toLowerCase())).toEqual([{ a: 'A', b: 'a' }]);
  });
});
