import { describe, expect, it } from 'vitest';
import { MAX_REVISION_SEGMENT_CHANGES } from '../../../../src-shared/ipc-contract.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../../src-shared/transcript-document.js';
import { documentChanges, revisionChanges } from '../../../../src-main/edits/revision-changes.js';

const segment = (id: number, start: number, text: string, speaker: string | null = 'SPEAKER_1'): TranscriptSegment => ({
  id,
  start,
  end: start + 1,
  speaker,
  text,
  words: [],
});
const document = (segments: TranscriptSegment[], patch: Partial<TranscriptDocument> = {}): TranscriptDocument => ({
  transcription_id: 't1',
  text: segments.map((s) => s.text).join(' '),
  language: 'en',
  duration: 60,
  speaking_duration: 60,
  segments,
  replacements: [],
  engine: { name: 'test', model: 'test', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00Z',
  ...patch,
});

describe('documentChanges', () => {
  it('lists the segments whose words or speaker changed, with both versions, in the order of the audio', () => {
    const before = document([segment(0, 0, 'good morning'), segment(1, 2, 'the budget'), segment(2, 4, 'thanks')]);
    const after = document([
      segment(0, 0, 'good morning'),
      segment(1, 2, 'the Q3 budget'),
      segment(2, 4, 'thanks', 'SPEAKER_2'),
    ]);
    expect(documentChanges(before, after)).toEqual({
      language: 'en',
      segments: [
        {
          segmentId: 1,
          start: 2,
          before: { text: 'the budget', speaker: 'SPEAKER_1' },
          after: { text: 'the Q3 budget', speaker: 'SPEAKER_1' },
        },
        {
          segmentId: 2,
          start: 4,
          before: { text: 'thanks', speaker: 'SPEAKER_1' },
          after: { text: 'thanks', speaker: 'SPEAKER_2' },
        },
      ],
      moreSegments: 0,
      speakerNames: [],
      replacements: [],
    });
  });

  it('shows a merge as one segment grown and the next removed, a split as one shortened and one added', () => {
    const before = document([segment(0, 0, 'one'), segment(1, 2, 'two'), segment(2, 4, 'three four')]);
    const after = document([segment(0, 0, 'one two'), segment(2, 4, 'three'), segment(3, 5, 'four')]);
    expect(documentChanges(before, after).segments).toEqual([
      {
        segmentId: 0,
        start: 0,
        before: { text: 'one', speaker: 'SPEAKER_1' },
        after: { text: 'one two', speaker: 'SPEAKER_1' },
      },
      { segmentId: 1, start: 2, before: { text: 'two', speaker: 'SPEAKER_1' }, after: null },
      {
        segmentId: 2,
        start: 4,
        before: { text: 'three four', speaker: 'SPEAKER_1' },
        after: { text: 'three', speaker: 'SPEAKER_1' },
      },
      { segmentId: 3, start: 5, before: null, after: { text: 'four', speaker: 'SPEAKER_1' } },
    ]);
  });

  it('names speaker names set, renamed and removed, and the replacements a dictionary made this time', () => {
    const segments = [segment(0, 0, 'the budget')];
    const before = document(segments, {
      speaker_names: { SPEAKER_1: 'Alice', SPEAKER_3: 'Carol' },
      replacements: [{ pattern: 'kiki tori', replacement: 'Kikitori', count: 2, segment_ids: [0] }],
    });
    const after = document([segment(0, 0, 'the Q3 budget')], {
      speaker_names: { SPEAKER_1: 'Aiko', SPEAKER_2: 'Bob' },
      replacements: [
        { pattern: 'kiki tori', replacement: 'Kikitori', count: 2, segment_ids: [0] },
        { pattern: 'budget', replacement: 'Q3 budget', count: 1, segment_ids: [0] },
      ],
    });
    const changes = documentChanges(before, after);
    expect(changes.speakerNames).toEqual([
      { speaker: 'SPEAKER_1', before: 'Alice', after: 'Aiko' },
      { speaker: 'SPEAKER_2', before: null, after: 'Bob' },
      { speaker: 'SPEAKER_3', before: 'Carol', after: null },
    ]);
    expect(changes.replacements).toEqual([{ pattern: 'budget', replacement: 'Q3 budget', count: 1 }]);

    // Applied again: only what this run added counts.
    const again = document(after.segments, {
      ...after,
      replacements: [after.replacements[0]!, { ...after.replacements[1]!, count: 4 }],
    });
    expect(documentChanges(after, again).replacements).toEqual([
      { pattern: 'budget', replacement: 'Q3 budget', count: 3 },
    ]);
  });

  it('lists a bounded number of segments and says how many more changed', () => {
    const many = MAX_REVISION_SEGMENT_CHANGES + 5;
    const before = document(Array.from({ length: many }, (_, i) => segment(i, i, `word ${i}`)));
    const after = document(before.segments.map((s) => ({ ...s, text: `${s.text}!` })));
    const changes = documentChanges(before, after);
    expect(changes.segments).toHaveLength(MAX_REVISION_SEGMENT_CHANGES);
    expect(changes.moreSegments).toBe(5);
    expect(changes.segments[0]!.segmentId).toBe(0);
  });

  it('has nothing for the recognized document, and nothing when only timing moved', () => {
    const recognized = document([segment(0, 0, 'hello')]);
    expect(documentChanges(null, recognized)).toMatchObject({ segments: [], speakerNames: [], replacements: [] });
    const retimed = document([{ ...segment(0, 0, 'hello'), end: 1.5 }]);
    expect(documentChanges(recognized, retimed).segments).toEqual([]);
  });
});

describe('revisionChanges', () => {
  it('compares the revision with the one before it, and reads only revision 1 for revision 1', async () => {
    const asked: number[] = [];
    const documents = [
      document([segment(0, 0, 'as recognized')]),
      document([segment(0, 0, 'as corrected')], { revision: 2 }),
    ];
    const client = {
      getRevision: async (_id: string, revision: number) => {
        asked.push(revision);
        return { document: documents[revision - 1]! } as Awaited<
          ReturnType<Parameters<typeof revisionChanges>[0]['getRevision']>
        >;
      },
    };
    expect(await revisionChanges(client, 't1', 2)).toMatchObject({
      revision: 2,
      segments: [{ segmentId: 0, before: { text: 'as recognized' }, after: { text: 'as corrected' } }],
    });
    expect(asked.sort()).toEqual([1, 2]);
    asked.length = 0;
    expect(await revisionChanges(client, 't1', 1)).toMatchObject({ revision: 1, segments: [] });
    expect(asked).toEqual([1]);
  });
});
