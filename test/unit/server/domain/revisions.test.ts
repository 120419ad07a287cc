// Revisions as changes (decision 0052): a change replays to the document it was taken from, what it touched,
// and how operations made on an older revision are rebased or refused.
import { describe, expect, it } from 'vitest';
import {
  applyChange,
  diffDocuments,
  rebaseOperations,
  reviewSegments,
  reviewText,
  touchedBy,
} from '../../../../src-server/domain/revisions.js';
import type { EditOperation } from '../../../../src-shared/transcript-editing.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../../src-shared/transcript-document.js';

function segment(id: number, start: number, words: string[], speaker: string | null = 'SPEAKER_1'): TranscriptSegment {
  return {
    id,
    start,
    end: start + words.length,
    speaker,
    text: words.join(' '),
    words: words.map((word, i) => ({ word, start: start + i, end: start + i + 1, confidence: 1 })),
  };
}

const document: TranscriptDocument = {
  transcription_id: 't1',
  text: '',
  language: 'en',
  duration: 12,
  speaking_duration: 12,
  segments: [
    segment(0, 0, ['one', 'two', 'three']),
    segment(1, 3, ['four', 'five', 'six'], 'SPEAKER_2'),
    segment(2, 6, ['seven', 'eight', 'nine']),
    segment(3, 9, ['ten', 'eleven', 'twelve'], 'SPEAKER_2'),
  ],
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
};

function apply(doc: TranscriptDocument, operations: EditOperation[]): TranscriptDocument {
  const outcome = rebaseOperations(doc, doc, { segments: [], speakers: [] }, operations, true);
  if (outcome.kind !== 'applied') throw new Error(`not applied: ${JSON.stringify(outcome)}`);
  return outcome.document;
}

describe('a change', () => {
  it('holds only what moved, and replays to the same document', () => {
    const after = apply(document, [{ kind: 'text', segmentId: 2, text: 'seven eight nine ten' }]);
    const change = diffDocuments(document, after);
    expect(change.set.map((s) => s.id)).toEqual([2]);
    expect(change.removed).toEqual([]);
    expect(change.order).toBeUndefined();
    expect(applyChange(document, change)).toEqual(after);
  });

  it('records the order after a merge or a split, and replays it', () => {
    const merged = apply(document, [{ kind: 'merge', segmentId: 1 }]);
    const split = apply(merged, [{ kind: 'split', segmentId: 0, wordIndex: 1 }]);
    const mergeChange = diffDocuments(document, merged);
    expect(mergeChange.removed).toEqual([2]);
    expect(mergeChange.order).toEqual([0, 1, 3]);
    const splitChange = diffDocuments(merged, split);
    expect(splitChange.order).toEqual([0, 4, 1, 3]);
    expect(applyChange(applyChange(document, mergeChange), splitChange)).toEqual(split);
  });

  it('names the segments and speaker labels it touched, a name only when it moved', () => {
    const named = apply(document, [{ kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'Aiko' }]);
    const renamed = apply(named, [
      { kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Ben' },
      { kind: 'text', segmentId: 3, text: 'ten' },
    ]);
    expect(touchedBy([diffDocuments(document, named), diffDocuments(named, renamed)], document)).toEqual({
      segments: [3],
      speakers: ['SPEAKER_1', 'SPEAKER_2'],
    });
    expect(touchedBy([diffDocuments(named, renamed)], named)).toEqual({ segments: [3], speakers: ['SPEAKER_2'] });
  });
});

describe('rebasing operations made on an older revision', () => {
  const theirs = apply(document, [{ kind: 'text', segmentId: 0, text: 'uno dos tres' }]);
  const since = touchedBy([diffDocuments(document, theirs)], document);

  it('applies them on the latest when they touch other segments', () => {
    const outcome = rebaseOperations(
      document,
      theirs,
      since,
      [{ kind: 'word', segmentId: 3, wordIndex: 1, text: '11' }],
      false,
    );
    expect(outcome.kind).toBe('applied');
    if (outcome.kind !== 'applied') return;
    expect(outcome.rebased).toBe(true);
    expect(outcome.document.segments.map((s) => s.text)).toEqual([
      'uno dos tres',
      'four five six',
      'seven eight nine',
      'ten 11 twelve',
    ]);
  });

  it('refuses them on the segments both touched, directly or through a merge', () => {
    expect(rebaseOperations(document, theirs, since, [{ kind: 'text', segmentId: 0, text: 'mine' }], false)).toEqual({
      kind: 'conflict',
      touched: { segments: [0], speakers: [] },
    });
    // Merging the segment before theirs swallows theirs.
    const afterOne = apply(document, [{ kind: 'text', segmentId: 1, text: 'changed' }]);
    const sinceOne = touchedBy([diffDocuments(document, afterOne)], document);
    expect(rebaseOperations(document, afterOne, sinceOne, [{ kind: 'merge', segmentId: 0 }], false)).toEqual({
      kind: 'conflict',
      touched: { segments: [1], speakers: [] },
    });
  });

  it('refuses a new speaker label someone else brought in since, and rebases a split to a speaker by what it meant', () => {
    const theirNew = apply(document, [{ kind: 'speaker', segmentId: 0, speaker: 'SPEAKER_3' }]);
    const sinceNew = touchedBy([diffDocuments(document, theirNew)], document);
    expect(
      rebaseOperations(document, theirNew, sinceNew, [{ kind: 'speaker', segmentId: 3, speaker: 'SPEAKER_3' }], false),
    ).toEqual({ kind: 'conflict', touched: { segments: [3], speakers: ['SPEAKER_3'] } });
    // Someone split another segment since: the split's new id moves, and its speaker goes with the new half.
    const theirSplit = apply(document, [{ kind: 'split', segmentId: 0, wordIndex: 1 }]);
    const sinceSplit = touchedBy([diffDocuments(document, theirSplit)], document);
    const outcome = rebaseOperations(
      document,
      theirSplit,
      sinceSplit,
      [{ kind: 'split', segmentId: 2, wordIndex: 2, speaker: 'SPEAKER_3' }],
      false,
    );
    expect(outcome.kind === 'applied' && outcome.document.segments.map((s) => [s.id, s.text, s.speaker])).toEqual([
      [0, 'one', 'SPEAKER_1'],
      [4, 'two three', 'SPEAKER_1'],
      [1, 'four five six', 'SPEAKER_2'],
      [2, 'seven eight', 'SPEAKER_1'],
      [5, 'nine', 'SPEAKER_3'],
      [3, 'ten eleven twelve', 'SPEAKER_2'],
    ]);
  });

  it('refuses a replace-all that would now reach a segment someone changed', () => {
    const added = apply(document, [{ kind: 'text', segmentId: 2, text: 'seven two nine' }]);
    const sinceAdded = touchedBy([diffDocuments(document, added)], document);
    const replaceAll: EditOperation = {
      kind: 'replace',
      query: 'two',
      replacement: '2',
      options: { matchCase: true, wholeWord: true },
    };
    expect(rebaseOperations(document, added, sinceAdded, [replaceAll], false)).toEqual({
      kind: 'conflict',
      touched: { segments: [2], speakers: [] },
    });
  });

  it('refuses an operation that no longer applies (its segment was merged away)', () => {
    const merged = apply(document, [{ kind: 'merge', segmentId: 2 }]);
    const sinceMerge = touchedBy([diffDocuments(document, merged)], document);
    const outcome = rebaseOperations(document, merged, sinceMerge, [{ kind: 'text', segmentId: 3, text: 'x' }], false);
    expect(outcome).toEqual({ kind: 'conflict', touched: { segments: [3], speakers: [] } });
  });

  it('gives a split on the latest the next free id there, not the one it had on the base', () => {
    const splitTheirs = apply(document, [{ kind: 'split', segmentId: 0, wordIndex: 1 }]);
    const sinceSplit = touchedBy([diffDocuments(document, splitTheirs)], document);
    const outcome = rebaseOperations(
      document,
      splitTheirs,
      sinceSplit,
      [{ kind: 'split', segmentId: 3, wordIndex: 2 }],
      false,
    );
    expect(outcome.kind).toBe('applied');
    if (outcome.kind !== 'applied') return;
    expect(outcome.document.segments.map((s) => s.id)).toEqual([0, 4, 1, 2, 3, 5]);
  });

  it('conflicts on a speaker named by both, and not on different ones', () => {
    const named = apply(document, [{ kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'Aiko' }]);
    const sinceNamed = touchedBy([diffDocuments(document, named)], document);
    expect(
      rebaseOperations(
        document,
        named,
        sinceNamed,
        [{ kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'Ann' }],
        false,
      ),
    ).toEqual({ kind: 'conflict', touched: { segments: [], speakers: ['SPEAKER_1'] } });
    const other = rebaseOperations(
      document,
      named,
      sinceNamed,
      [{ kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Ben' }],
      false,
    );
    expect(other.kind === 'applied' && other.document.speaker_names).toEqual({ SPEAKER_1: 'Aiko', SPEAKER_2: 'Ben' });
  });

  it('reports an operation that does not apply to its own base as invalid, with its index and field', () => {
    expect(
      rebaseOperations(
        document,
        document,
        { segments: [], speakers: [] },
        [
          { kind: 'text', segmentId: 0, text: 'fine' },
          { kind: 'split', segmentId: 1, wordIndex: 0 },
        ],
        true,
      ),
    ).toMatchObject({ kind: 'invalid', index: 1, field: 'wordIndex' });
  });
});

describe('the review text', () => {
  it('maps one line per segment onto the segments, keeping untouched ones', () => {
    const lines = document.segments.map((s) => s.text);
    lines[1] = 'four 5 six';
    const segments = reviewSegments(document, lines.join('\n'));
    expect(segments[0]).toBe(document.segments[0]);
    expect(segments[1]!.words.map((w) => [w.word, w.start])).toEqual([
      ['four', 3],
      ['5', 4],
      ['six', 5],
    ]);
  });

  it('re-times a review of a few hundred thousand words onto a segment as long without a quadratic table', () => {
    const long = Array.from({ length: 300_000 }, (_, i) => `w${i % 1000}`);
    const big: TranscriptDocument = { ...document, segments: [segment(0, 0, long)], duration: 300_000 };
    const edited = [...long];
    edited[150_000] = 'changed';
    const [only] = reviewSegments(big, edited.join(' '));
    expect(only!.words).toHaveLength(300_000);
    // The common start and end keep their times; the changed word takes the time of the one it replaces.
    expect(only!.words[0]).toEqual(big.segments[0]!.words[0]);
    expect(only!.words[299_999]).toEqual(big.segments[0]!.words[299_999]);
    expect(only!.words[150_000]).toMatchObject({ word: 'changed', start: 150_000, end: 150_001 });
  });

  it('spreads any other text over the transcript, one segment per line, and reads back as sent', () => {
    const text = 'a first line\nand a second, longer line';
    const segments = reviewSegments(document, text);
    expect(segments.map((s) => s.text)).toEqual(['a first line', 'and a second, longer line']);
    expect(segments[0]!.start).toBe(0);
    expect(segments[1]!.end).toBe(12);
    expect(segments[0]!.end).toBe(segments[1]!.start);
    expect(reviewText({ ...document, segments })).toBe(text);
  });
});
