import { describe, expect, it } from 'vitest';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';
import { LIMITS } from '../../../src-shared/limits.js';
import {
  applyOperation,
  applyOperations,
  decodeReview,
  emptyHistory,
  encodeReview,
  findMatches,
  nextSpeakerLabel,
  recordEdit,
  redoEdit,
  STRUCTURE_MARK,
  undoEdit,
  type EditContext,
  type SegmentOperation,
} from '../../../src-shared/transcript-editing.js';

/** A segment whose words are timed one second each from `start`. */
function segment(
  id: number,
  start: number,
  words: string[],
  speaker: string | null = 'SPEAKER_1',
  separator = ' ',
): TranscriptSegment {
  return {
    id,
    start,
    end: start + words.length,
    speaker,
    text: words.join(separator),
    words: words.map((word, i) => ({ word, start: start + i, end: start + i + 1, confidence: 0.9 })),
  };
}

const doc = (language: string, segments: TranscriptSegment[]): TranscriptDocument => ({
  transcription_id: 't',
  text: '',
  language,
  duration: 20,
  speaking_duration: 20,
  segments,
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
});

const en: EditContext = { language: 'en', speakers: new Set(['SPEAKER_1', 'SPEAKER_2']) };
const ja: EditContext = { language: 'ja', speakers: new Set(['SPEAKER_1']) };

function apply(segments: TranscriptSegment[], operation: SegmentOperation, context = en): TranscriptSegment[] {
  const outcome = applyOperation(segments, operation, context);
  if (!outcome.ok) throw new Error(outcome.message);
  return outcome.segments;
}

describe('inline word edit', () => {
  const segments = [segment(0, 0, ['the', 'anual', 'budget,', 'please']), segment(1, 4, ['thanks'])];

  it('replaces one word, keeps the other words and their times, and gives the new word the old span', () => {
    const [edited, untouched] = apply(segments, { kind: 'word', segmentId: 0, wordIndex: 1, text: 'annual' });
    expect(edited!.text).toBe('the annual budget, please');
    expect(edited!.words[0]).toBe(segments[0]!.words[0]);
    expect(edited!.words[2]).toBe(segments[0]!.words[2]);
    expect(edited!.words[1]).toEqual({ word: 'annual', start: 1, end: 2, confidence: null });
    expect(untouched).toBe(segments[1]);
  });

  it('spreads several new words over the edited word’s time (by length), and removes a word edited to nothing', () => {
    const [two] = apply(segments, { kind: 'word', segmentId: 0, wordIndex: 1, text: 'yearly total' });
    expect(two!.text).toBe('the yearly total budget, please');
    expect(two!.words.slice(1, 3).map((w) => [w.word, w.start, w.end])).toEqual([
      ['yearly', 1, 1.545],
      ['total', 1.545, 2],
    ]);
    const [none] = apply(segments, { kind: 'word', segmentId: 0, wordIndex: 1, text: ' ' });
    expect(none!.text).toBe('the budget, please');
    expect(none!.words.map((w) => w.word)).toEqual(['the', 'budget,', 'please']);
  });

  it('edits one unit of a Japanese segment in place', () => {
    const jp = [segment(0, 0, ['ききとり', 'です', '。'], 'SPEAKER_1', '')];
    const [edited] = apply(jp, { kind: 'word', segmentId: 0, wordIndex: 0, text: '聞き取り' }, ja);
    expect(edited!.text).toBe('聞き取りです。');
    expect(edited!.words.map((w) => [w.word, w.start])).toEqual([
      ['聞き取り', 0],
      ['です', 1],
      ['。', 2],
    ]);
  });
});

describe('find and replace', () => {
  it('matches case-insensitively unless asked, and whole words only when asked (Latin)', () => {
    const segments = [segment(0, 0, ['Cat', 'concat', 'cat.']), segment(1, 3, ['category'])];
    expect(findMatches(segments, 'cat', { matchCase: false, wholeWord: false })).toHaveLength(4);
    expect(findMatches(segments, 'cat', { matchCase: true, wholeWord: false })).toHaveLength(3);
    expect(
      findMatches(segments, 'cat', { matchCase: false, wholeWord: true }).map((m) => [m.segmentId, m.start]),
    ).toEqual([
      [0, 0],
      [0, 11],
    ]);
  });

  it('treats Japanese as having no word boundaries, so whole word still finds words inside a sentence', () => {
    const segments = [segment(0, 0, ['東京', '都', 'の', 'API', 'は', '東京', 'です'], 'SPEAKER_1', '')];
    expect(findMatches(segments, '東京', { matchCase: false, wholeWord: true })).toHaveLength(2);
    expect(findMatches(segments, 'API', { matchCase: true, wholeWord: true })).toHaveLength(1);
    expect(findMatches(segments, 'AP', { matchCase: true, wholeWord: true })).toHaveLength(0);
  });

  it('replaces all over Latin text, re-timing only the touched words', () => {
    const segments = [segment(0, 0, ['the', 'colour', 'and', 'Colour']), segment(1, 4, ['no', 'match'])];
    const next = apply(segments, {
      kind: 'replace',
      query: 'colour',
      replacement: 'color',
      options: { matchCase: false, wholeWord: true },
    });
    expect(next[0]!.text).toBe('the color and color');
    expect(next[0]!.words.map((w) => [w.word, w.start, w.end])).toEqual([
      ['the', 0, 1],
      ['color', 1, 2],
      ['and', 2, 3],
      ['color', 3, 4],
    ]);
    expect(next[1]).toBe(segments[1]);
  });

  it('replaces all over Japanese, across recognition units, keeping the other units’ times', () => {
    const segments = [
      segment(0, 0, ['東', '京都', 'に', '行き', 'ます'], 'SPEAKER_1', ''),
      segment(1, 5, ['東京', 'です'], 'SPEAKER_1', ''),
    ];
    const next = apply(
      segments,
      { kind: 'replace', query: '東京', replacement: '大阪', options: { matchCase: false, wholeWord: true } },
      ja,
    );
    expect(next.map((s) => s.text)).toEqual(['大阪都に行きます', '大阪です']);
    // "東" + "京都" were one stretch of time: it becomes "大阪都" over 0..2; the rest keep theirs.
    expect(next[0]!.words.map((w) => [w.word, w.start, w.end])).toEqual([
      ['大阪都', 0, 2],
      ['に', 2, 3],
      ['行き', 3, 4],
      ['ます', 4, 5],
    ]);
    expect(next[1]!.words[1]).toBe(segments[1]!.words[1]);
  });

  it('replaces one chosen match only', () => {
    const segments = [segment(0, 0, ['a', 'b', 'a'])];
    const [only] = apply(segments, {
      kind: 'replace',
      query: 'a',
      replacement: 'x',
      options: { matchCase: true, wholeWord: true },
      only: { segmentId: 0, start: 4 },
    });
    expect(only!.text).toBe('a b x');
    expect(
      applyOperation(
        segments,
        { kind: 'replace', query: 'zzz', replacement: 'x', options: { matchCase: true, wholeWord: false } },
        en,
      ).ok,
    ).toBe(false);
  });
});

describe('merge, split and speaker', () => {
  const segments = [
    segment(0, 0, ['Hello', 'there.']),
    segment(1, 2, ['How', 'are', 'you?'], 'SPEAKER_2'),
    segment(2, 5, ['Fine.']),
  ];

  it('merges a segment with the next: one span, both texts and words, the first speaker', () => {
    const next = apply(segments, { kind: 'merge', segmentId: 0 });
    expect(next).toHaveLength(2);
    expect(next[0]).toMatchObject({ id: 0, start: 0, end: 5, speaker: 'SPEAKER_1', text: 'Hello there. How are you?' });
    expect(next[0]!.words).toHaveLength(5);
    expect(applyOperation(segments, { kind: 'merge', segmentId: 2 }, en).ok).toBe(false);
  });

  it('merges Japanese segments without a space', () => {
    const jp = [
      segment(0, 0, ['こんにちは', '。'], 'SPEAKER_1', ''),
      segment(1, 2, ['元気', 'です', 'か'], 'SPEAKER_1', ''),
    ];
    expect(apply(jp, { kind: 'merge', segmentId: 0 }, ja)[0]!.text).toBe('こんにちは。元気ですか');
  });

  it('splits before a word, with a new id, each half keeping its words and times', () => {
    const next = apply(segments, { kind: 'split', segmentId: 1, wordIndex: 1 });
    expect(next.map((s) => [s.id, s.start, s.end, s.text, s.speaker])).toEqual([
      [0, 0, 2, 'Hello there.', 'SPEAKER_1'],
      [1, 2, 3, 'How', 'SPEAKER_2'],
      [3, 3, 5, 'are you?', 'SPEAKER_2'],
      [2, 5, 6, 'Fine.', 'SPEAKER_1'],
    ]);
    expect(applyOperation(segments, { kind: 'split', segmentId: 1, wordIndex: 0 }, en).ok).toBe(false);
    // Split then merge gives the segment back.
    expect(apply(next, { kind: 'merge', segmentId: 1 })[1]).toEqual(segments[1]);
  });

  it("changes a segment's speaker to one of the transcript's, and refuses others", () => {
    expect(apply(segments, { kind: 'speaker', segmentId: 2, speaker: 'SPEAKER_2' })[2]!.speaker).toBe('SPEAKER_2');
    expect(applyOperation(segments, { kind: 'speaker', segmentId: 2, speaker: 'SPEAKER_9' }, en)).toMatchObject({
      ok: false,
      field: 'speaker',
    });
  });
});

describe("a speaker's name", () => {
  const named = doc('en', [segment(0, 0, ['Hello', 'there.']), segment(1, 2, ['Fine.'], 'SPEAKER_2')]);

  it('is set in the document, tidied, beside the edits of segments, and removed by null or a blank', () => {
    const outcome = applyOperations(named, [
      { kind: 'speaker-name', speaker: 'SPEAKER_1', name: '  Aiko   Tanaka ' },
      { kind: 'speaker-name', speaker: 'SPEAKER_2', name: 'Ben' },
      { kind: 'text', segmentId: 1, text: 'Fine, thanks.' },
    ]);
    expect(outcome.ok && outcome.document.speaker_names).toEqual({ SPEAKER_1: 'Aiko Tanaka', SPEAKER_2: 'Ben' });
    expect(outcome.ok && outcome.document.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['SPEAKER_1', 'Hello there.'],
      ['SPEAKER_2', 'Fine, thanks.'],
    ]);
    const document = outcome.ok ? outcome.document : named;
    const removed = applyOperations(document, [
      { kind: 'speaker-name', speaker: 'SPEAKER_1', name: null },
      { kind: 'speaker-name', speaker: 'SPEAKER_2', name: '   ' },
    ]);
    expect(removed.ok && removed.document.speaker_names).toEqual({});
  });

  it('refuses a label the transcript does not have, and a name over the limit, saying which operation and field', () => {
    expect(
      applyOperations(named, [
        { kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'Aiko' },
        { kind: 'speaker-name', speaker: 'SPEAKER_9', name: 'Nobody' },
      ]),
    ).toEqual({
      ok: false,
      index: 1,
      field: 'speaker',
      message: 'There is no speaker "SPEAKER_9" in this transcript.',
    });
    const outcome = applyOperations(named, [
      { kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'x'.repeat(LIMITS.speakerName + 1) },
    ]);
    expect(outcome).toMatchObject({ ok: false, index: 0, field: 'name', message: expect.stringContaining('100') });
    expect(
      applyOperations(named, [{ kind: 'speaker-name', speaker: 'SPEAKER_1', name: 'x'.repeat(LIMITS.speakerName) }]).ok,
    ).toBe(true);
  });
});

describe('speaker editing (decision 0060)', () => {
  const meeting = doc('en', [
    segment(0, 0, ['Hello', 'there.']),
    segment(1, 2, ['How', 'are', 'you?'], 'SPEAKER_2'),
    segment(2, 5, ['Fine.']),
  ]);

  it('names the next new speaker one past the highest SPEAKER_<n>, ignoring other labels', () => {
    expect(nextSpeakerLabel([])).toBe('SPEAKER_1');
    expect(nextSpeakerLabel(['SPEAKER_1', 'SPEAKER_7', 'guest', 'SPEAKER_x'])).toBe('SPEAKER_8');
  });

  it('gives a segment a new speaker only as the next free label, which later operations may then use and name', () => {
    const outcome = applyOperations(meeting, [
      { kind: 'speaker', segmentId: 2, speaker: 'SPEAKER_3' },
      { kind: 'speaker-name', speaker: 'SPEAKER_3', name: 'Chie' },
      { kind: 'speaker', segmentId: 0, speaker: 'SPEAKER_3' },
    ]);
    expect(outcome.ok && outcome.document.segments.map((s) => s.speaker)).toEqual([
      'SPEAKER_3',
      'SPEAKER_2',
      'SPEAKER_3',
    ]);
    expect(outcome.ok && outcome.document.speaker_names).toEqual({ SPEAKER_3: 'Chie' });
    expect(applyOperations(meeting, [{ kind: 'speaker', segmentId: 2, speaker: 'SPEAKER_4' }])).toEqual({
      ok: false,
      index: 0,
      field: 'speaker',
      message: 'There is no speaker "SPEAKER_4" in this transcript. A new speaker is "SPEAKER_3", the next free label.',
    });
    expect(applyOperations(meeting, [{ kind: 'speaker', segmentId: 2, speaker: 'Alice' }])).toMatchObject({
      ok: false,
      field: 'speaker',
    });
  });

  it('merges one speaker into another: every segment of it, and its name goes', () => {
    const named = { ...meeting, speaker_names: { SPEAKER_1: 'Aiko', SPEAKER_2: 'Ben' } };
    const outcome = applyOperations(named, [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_2' }]);
    expect(outcome.ok && outcome.document.segments.map((s) => s.speaker)).toEqual([
      'SPEAKER_2',
      'SPEAKER_2',
      'SPEAKER_2',
    ]);
    expect(outcome.ok && outcome.document.speaker_names).toEqual({ SPEAKER_2: 'Ben' });
    expect(outcome.ok && outcome.document.segments[1]).toBe(named.segments[1]);
  });

  it('refuses a merge of an unknown speaker, into an unknown one, or into itself, naming the field', () => {
    const merge = (from: string, into: string) => applyOperations(meeting, [{ kind: 'merge-speakers', from, into }]);
    expect(merge('SPEAKER_9', 'SPEAKER_1')).toMatchObject({ ok: false, field: 'from' });
    expect(merge('SPEAKER_1', 'SPEAKER_3')).toMatchObject({ ok: false, field: 'into' });
    expect(merge('SPEAKER_1', 'SPEAKER_1')).toMatchObject({
      ok: false,
      field: 'into',
      message: 'A speaker is merged into another speaker, not itself.',
    });
  });

  it('splits a segment at a word and gives the second part another speaker, new or known', () => {
    const next = apply(meeting.segments, { kind: 'split', segmentId: 1, wordIndex: 1, speaker: 'SPEAKER_3' });
    expect(next.map((s) => [s.id, s.text, s.speaker])).toEqual([
      [0, 'Hello there.', 'SPEAKER_1'],
      [1, 'How', 'SPEAKER_2'],
      [3, 'are you?', 'SPEAKER_3'],
      [2, 'Fine.', 'SPEAKER_1'],
    ]);
    expect(
      apply(meeting.segments, { kind: 'split', segmentId: 1, wordIndex: 2, speaker: 'SPEAKER_1' })[2]!.speaker,
    ).toBe('SPEAKER_1');
    expect(
      applyOperation(meeting.segments, { kind: 'split', segmentId: 1, wordIndex: 1, speaker: 'SPEAKER_5' }, en),
    ).toMatchObject({ ok: false, field: 'speaker' });
  });
});

describe('recognized voices (decision 0065) follow the speaker label', () => {
  const alice = { speaker_id: 'v-alice', speaker_name: 'Alice', speaker_confidence: 0.9 };
  const meeting = doc('en', [
    { ...segment(0, 0, ['Hello', 'there.']), ...alice },
    segment(1, 2, ['How', 'are', 'you?'], 'SPEAKER_2'),
    { ...segment(2, 5, ['Fine', 'thanks.']), ...alice },
  ]);
  const voiceOf = (s: TranscriptSegment) => [s.speaker, s.speaker_id, s.speaker_name, s.speaker_confidence];

  it("drops the voice when a segment goes to an unrecognized speaker, and takes the label's voice when it goes to a recognized one", () => {
    const moved = apply(meeting.segments, { kind: 'speaker', segmentId: 0, speaker: 'SPEAKER_2' });
    expect(voiceOf(moved[0]!)).toEqual(['SPEAKER_2', undefined, undefined, undefined]);
    expect('speaker_id' in moved[0]!).toBe(false);
    const back = apply(meeting.segments, { kind: 'speaker', segmentId: 1, speaker: 'SPEAKER_1' });
    expect(voiceOf(back[1]!)).toEqual(['SPEAKER_1', 'v-alice', 'Alice', 0.9]);
  });

  it('does the same when speakers are merged and when a split gives the second part another speaker', () => {
    const merged = applyOperations(meeting, [{ kind: 'merge-speakers', from: 'SPEAKER_1', into: 'SPEAKER_2' }]);
    expect(merged.ok && merged.document.segments.map(voiceOf)).toEqual([
      ['SPEAKER_2', undefined, undefined, undefined],
      ['SPEAKER_2', undefined, undefined, undefined],
      ['SPEAKER_2', undefined, undefined, undefined],
    ]);
    const split = apply(meeting.segments, { kind: 'split', segmentId: 2, wordIndex: 1, speaker: 'SPEAKER_2' });
    expect(split.map(voiceOf)).toEqual([
      ['SPEAKER_1', 'v-alice', 'Alice', 0.9],
      ['SPEAKER_2', undefined, undefined, undefined],
      ['SPEAKER_1', 'v-alice', 'Alice', 0.9],
      ['SPEAKER_2', undefined, undefined, undefined],
    ]);
  });
});

describe('an edit of a kind this version does not know', () => {
  it('fails loudly, naming it, rather than answering nothing (an edit queued by a newer app, or a damaged outbox row)', () => {
    const segments = [segment(0, 0, ['Hello', 'there.'])];
    const unknown = { kind: 'translate', segmentId: 0 } as unknown as Parameters<typeof applyOperation>[1];
    expect(() => applyOperation(segments, unknown, en)).toThrow(
      'Unhandled edit operation: {"kind":"translate","segmentId":0}',
    );
  });
});

describe('undo and redo', () => {
  it('walks back and forth through edits, and a new edit drops what could be redone', () => {
    let history = emptyHistory<string>();
    history = recordEdit(history, 'a');
    history = recordEdit(history, 'b'); // current: c
    const back = undoEdit(history, 'c')!;
    expect(back.state).toBe('b');
    const back2 = undoEdit(back.history, 'b')!;
    expect(back2.state).toBe('a');
    expect(undoEdit(back2.history, 'a')).toBeNull();
    const forward = redoEdit(back2.history, 'a')!;
    expect(forward.state).toBe('b');
    expect(recordEdit(forward.history, 'b').future).toEqual([]);
    expect(recordEdit({ past: ['1', '2', '3'], future: [] }, '4', 3).past).toEqual(['2', '3', '4']);
  });
});

describe('the review text', () => {
  const server = doc('en', [segment(0, 0, ['Hello', 'there.']), segment(1, 2, ['How', 'are', 'you?'], 'SPEAKER_2')]);

  it('stays one plain line per segment for text corrections, and reads back', () => {
    const edited = apply(server.segments, { kind: 'word', segmentId: 1, wordIndex: 1, text: 'were' });
    const text = encodeReview(server, edited);
    expect(text).toBe('Hello there.\nHow were you?');
    expect(decodeReview(server, text)).toEqual(edited);
  });

  it('carries a changed structure on a last line, and reads merged, split and re-assigned segments back', () => {
    let edited = apply(server.segments, { kind: 'split', segmentId: 1, wordIndex: 2 });
    edited = apply(edited, { kind: 'merge', segmentId: 0 });
    edited = apply(edited, { kind: 'speaker', segmentId: 2, speaker: 'SPEAKER_1' });
    const text = encodeReview(server, edited);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Hello there. How are', 'you?']);
    expect(lines[2]!.startsWith(STRUCTURE_MARK)).toBe(true);
    expect(decodeReview(server, text)).toEqual(edited);
  });

  it('refuses a review of another shape', () => {
    expect(decodeReview(server, 'one line only')).toBeNull();
    expect(decodeReview(server, `a\n${STRUCTURE_MARK}[[0,0,1,"SPEAKER_9"]]`)).toBeNull();
  });
});
