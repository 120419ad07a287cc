import { describe, expect, it } from 'vitest';
import {
  changedSegmentIds,
  conflictOver,
  operationsApart,
  withOperations,
} from '../../../../src-main/edits/queued-edits.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import type { EditOperation } from '../../../../src-shared/transcript-editing.js';

/** Segments of three words each, a second apart per word. */
const doc = (texts: string[], revision = 1): TranscriptDocument => ({
  transcription_id: 't',
  revision,
  text: texts.join(' '),
  language: 'en',
  duration: texts.length * 3,
  speaking_duration: texts.length * 3,
  segments: texts.map((text, id) => ({
    id,
    start: id * 3,
    end: id * 3 + 3,
    speaker: 'SPEAKER_1',
    text,
    words: text.split(' ').map((word, i) => ({ word, start: id * 3 + i, end: id * 3 + i + 1, confidence: 1 })),
  })),
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
});

const text = (segmentId: number, value: string): EditOperation => ({ kind: 'text', segmentId, text: value });
const texts = (document: TranscriptDocument) => document.segments.map((s) => s.text);

describe('queued edits', () => {
  const base = doc(['one two three', 'four five six', 'seven eight nine']);

  it('shows the base with the queued operations, passing over one that no longer applies', () => {
    const shown = withOperations(base, [text(0, 'uno'), { kind: 'merge', segmentId: 1 }, text(7, 'gone')]);
    expect(texts(shown)).toEqual(['uno', 'four five six seven eight nine']);
    expect(shown.text).toBe('uno four five six seven eight nine');
  });

  it('names the segments changed, added or removed between two versions', () => {
    const after = withOperations(base, [text(0, 'uno'), { kind: 'split', segmentId: 2, wordIndex: 1 }]);
    expect([...changedSegmentIds(base.segments, after.segments)].sort()).toEqual([0, 2, 3]);
    expect([...changedSegmentIds(base.segments, base.segments)]).toEqual([]);
  });

  it('keeps apart only the operations that touch no conflicting segment, nor one such an operation made', () => {
    const operations: EditOperation[] = [
      { kind: 'split', segmentId: 0, wordIndex: 1 }, // conflicting segment 0; makes segment 3
      text(3, 'two and three'), // on the split's new half: goes with it
      text(1, 'four five six, edited'), // apart
      { kind: 'merge', segmentId: 1 }, // takes segment 2 along: apart, and so is segment 2's later edit
      text(1, 'four to nine'),
    ];
    const { apart, involved } = operationsApart(base, operations, new Set([0]));
    expect(involved).toEqual(operations.slice(0, 2));
    expect(apart).toEqual(operations.slice(2));
    // Apart, they apply to the base on their own.
    expect(texts(withOperations(base, apart))).toEqual(['one two three', 'four to nine']);

    // A merge into a conflicting segment carries its neighbour's later edits with it.
    const merged: EditOperation[] = [{ kind: 'merge', segmentId: 1 }, text(1, 'merged'), text(0, 'first')];
    expect(operationsApart(base, merged, new Set([2]))).toEqual({
      apart: [text(0, 'first')],
      involved: merged.slice(0, 2),
    });
  });

  it('finds the segments changed on both sides, with mine and theirs apart and who changed each on the server', () => {
    const mine = withOperations(base, [text(0, 'mine zero'), { kind: 'merge', segmentId: 1 }]);
    const second = doc(['theirs zero', 'four five six', 'seven eight nine'], 2);
    const third = doc(['theirs zero', 'four five six', 'theirs two'], 3);
    const conflict = conflictOver(base, mine, { ...third, revision: 3 }, [
      { author: 'bob name', document: second },
      { author: 'carol name', document: third },
    ]);
    // Segment 1 changed here only (it took segment 2 in): not a conflict. Segment 2: merged away here, changed there.
    expect(conflict).toEqual({
      latestRevision: 3,
      segments: [
        {
          segmentId: 0,
          start: 0,
          end: 3,
          theirs: { text: 'theirs zero', speaker: 'SPEAKER_1' },
          theirAuthors: ['bob name'],
        },
        {
          segmentId: 2,
          start: 6,
          end: 9,
          theirs: { text: 'theirs two', speaker: 'SPEAKER_1' },
          theirAuthors: ['carol name'],
        },
      ],
    });
    // A revision not read counts its author for every conflicting segment; the next is compared with the last read.
    const unread = conflictOver(base, mine, { ...third, revision: 3 }, [
      { author: 'bob name', document: null },
      { author: 'carol name', document: third },
    ]);
    expect(unread.segments.map((s) => s.theirAuthors)).toEqual([
      ['bob name', 'carol name'],
      ['bob name', 'carol name'],
    ]);
  });
});
