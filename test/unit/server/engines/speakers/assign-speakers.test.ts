import { describe, expect, it } from 'vitest';
import { assignSpeakers, speakerAt } from '../../../../../src-server/engines/speakers/assign-speakers.js';
import type { RecognizedSegment } from '../../../../../src-server/engines/speech/speech-engine.js';

const word = (w: string, start: number, end: number) => ({ word: w, start, end, confidence: 0.9 });
const segment = (start: number, end: number, ...words: ReturnType<typeof word>[]): RecognizedSegment => ({
  start,
  end,
  words,
});
const turns = [
  { start: 0, end: 4, speaker: 'SPEAKER_1' },
  { start: 4.2, end: 8, speaker: 'SPEAKER_2' },
  { start: 9, end: 12, speaker: 'SPEAKER_1' },
];

describe('assignSpeakers', () => {
  it('labels each segment with the speaker whose turn holds its words', () => {
    const out = assignSpeakers(
      [segment(0.1, 3.5, word('hello', 0.2, 0.6), word('there', 0.7, 1.1)), segment(9.2, 11, word('bye', 9.5, 10))],
      turns,
    );
    expect(out.map((s) => s.speaker)).toEqual(['SPEAKER_1', 'SPEAKER_1']);
    expect(out[0]).toMatchObject({ start: 0.1, end: 3.5 });
    expect(out[0]!.words.map((w) => w.word)).toEqual(['hello', 'there']);
  });

  it('splits a segment whose words fall on both sides of a speaker turn', () => {
    const s = segment(
      3,
      6,
      word('yes', 3.1, 3.5),
      word('right', 3.6, 3.95),
      word('so', 4.3, 4.6),
      word('well', 4.7, 5.2),
    );
    const out = assignSpeakers([s], turns);
    expect(out).toEqual([
      { start: 3, end: 3.95, speaker: 'SPEAKER_1', words: [s.words[0], s.words[1]] },
      { start: 4.3, end: 6, speaker: 'SPEAKER_2', words: [s.words[2], s.words[3]] },
    ]);
  });

  it('gives a word straddling a turn boundary to the turn it overlaps most', () => {
    const out = assignSpeakers([segment(3.5, 5, word('across', 3.9, 4.6))], turns);
    expect(out.map((s) => s.speaker)).toEqual(['SPEAKER_2']);
  });

  it('uses the nearest turn for words between turns, and null without turns', () => {
    expect(assignSpeakers([segment(8.2, 8.6, word('um', 8.3, 8.4))], turns)[0]!.speaker).toBe('SPEAKER_2');
    expect(assignSpeakers([segment(8.5, 8.9, word('uh', 8.7, 8.8))], turns)[0]!.speaker).toBe('SPEAKER_1');
    expect(assignSpeakers([segment(0, 1, word('a', 0, 1))], [])[0]!.speaker).toBeNull();
  });

  it('labels a segment without words by its own extent, and keeps the input untouched', () => {
    const input = [segment(4.5, 7)];
    const out = assignSpeakers(input, turns);
    expect(out).toEqual([{ start: 4.5, end: 7, words: [], speaker: 'SPEAKER_2' }]);
    expect(input[0]).not.toHaveProperty('speaker');
  });

  it('speakerAt picks the largest overlap', () => {
    expect(speakerAt(turns, 3.5, 5)).toBe('SPEAKER_2'); // 0.5 s vs 0.8 s
    expect(speakerAt(turns, 3, 5)).toBe('SPEAKER_1'); // 1 s vs 0.8 s
  });
});
