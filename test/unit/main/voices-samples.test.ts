// Which parts of a transcription "This is…" sends as samples of a voice (decision 0075).
import { describe, expect, it } from 'vitest';
import { speakerSamples } from '../../../src-main/voices/voice-service.js';
import { recognizedSpeakerNames } from '../../../src-shared/speaker-names.js';
import type { TranscriptSegment } from '../../../src-shared/transcript-document.js';

const seg = (id: number, speaker: string | null, start: number, end: number) =>
  ({ id, speaker, start, end, text: '', words: [] }) as unknown as TranscriptSegment;

describe('speaker samples', () => {
  it('joins a speaker’s consecutive turns, never across another voice, and takes only that speaker', () => {
    const segments = [
      seg(0, 'A', 0, 2),
      seg(1, 'A', 2.5, 4),
      seg(2, 'B', 4.2, 6),
      seg(3, 'A', 6.1, 8),
      seg(4, 'B', 8, 20),
    ];
    expect(speakerSamples(segments, 'A')).toEqual([
      { start: 0, end: 4 },
      { start: 6.1, end: 8 },
    ]);
    expect(speakerSamples(segments, 'C')).toEqual([]);
  });

  it('takes the longest parts first, up to the budget and the samples left', () => {
    const segments = [
      seg(0, 'A', 0, 10),
      seg(1, 'B', 10, 11),
      seg(2, 'A', 11, 51),
      seg(3, 'B', 51, 52),
      seg(4, 'A', 52, 82),
    ];
    expect(speakerSamples(segments, 'A')).toEqual([
      { start: 11, end: 51 },
      { start: 52, end: 72 },
    ]);
    expect(speakerSamples(segments, 'A', 1)).toEqual([{ start: 11, end: 51 }]);
    // A single turn longer than the server takes is cut to 300 s, then to the budget.
    expect(speakerSamples([seg(0, 'A', 0, 900)], 'A', 20, 1000)).toEqual([{ start: 0, end: 300 }]);
  });
});

describe('recognized speaker names', () => {
  it('names a label by the voice the server recognized in its segments', () => {
    const segments = [
      { speaker: 'SPEAKER_1', speaker_name: 'Alice' },
      { speaker: 'SPEAKER_2' },
      { speaker: 'SPEAKER_1', speaker_name: 'Alice' },
      { speaker: null, speaker_name: 'Nobody' },
      { speaker: 'SPEAKER_3', speaker_name: '  ' },
    ];
    expect(recognizedSpeakerNames(segments)).toEqual({ SPEAKER_1: 'Alice' });
  });
});
