import { describe, expect, it } from 'vitest';
import { speechWindows, toFileTime } from '../../../../../src-server/engines/speech/speech-windows.js';

describe('speechWindows', () => {
  it('joins speech regions end to end, without the silence between them, up to the window length', () => {
    const windows = speechWindows(
      [
        { start: 1, end: 5 },
        { start: 40, end: 52 },
        { start: 100, end: 110 },
        { start: 120, end: 125 },
      ],
      30,
    );
    expect(windows).toEqual([
      {
        seconds: 26,
        pieces: [
          { fileStart: 1, fileEnd: 5, windowStart: 0 },
          { fileStart: 40, fileEnd: 52, windowStart: 4 },
          { fileStart: 100, fileEnd: 110, windowStart: 16 },
        ],
      },
      { seconds: 5, pieces: [{ fileStart: 120, fileEnd: 125, windowStart: 0 }] },
    ]);
  });

  it('splits a region longer than a window, and gives nothing for no speech', () => {
    expect(speechWindows([{ start: 10, end: 75 }], 30).map((w) => w.pieces)).toEqual([
      [{ fileStart: 10, fileEnd: 40, windowStart: 0 }],
      [{ fileStart: 40, fileEnd: 70, windowStart: 0 }],
      [{ fileStart: 70, fileEnd: 75, windowStart: 0 }],
    ]);
    expect(speechWindows([], 30)).toEqual([]);
  });

  it('maps window times back to the file timeline exactly', () => {
    const [window] = speechWindows(
      [
        { start: 2, end: 4 },
        { start: 60, end: 63.5 },
      ],
      30,
    );
    expect(toFileTime(window!, 0)).toBe(2);
    expect(toFileTime(window!, 1.25)).toBe(3.25);
    expect(toFileTime(window!, 2)).toBe(60);
    expect(toFileTime(window!, 3)).toBe(61);
    expect(toFileTime(window!, 5.5)).toBe(63.5);
    // Past the end (whisper pads every window to 30 s): the last instant of speech.
    expect(toFileTime(window!, 29)).toBe(63.5);
  });
});
