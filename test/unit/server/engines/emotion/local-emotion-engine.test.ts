import { describe, expect, it } from 'vitest';
import { EMOTION_LABELS } from '../../../../../src-shared/analysis.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../../../src-shared/transcript-document.js';
import { LocalEmotionEngine } from '../../../../../src-server/engines/emotion/local-emotion-engine.js';

function doc(
  language: string,
  texts: Array<[string, number, number, string | null]>,
  duration = 30,
): TranscriptDocument {
  const segments: TranscriptSegment[] = texts.map(([text, start, end, speaker], id) => ({
    id,
    start,
    end,
    speaker,
    text,
    words: [],
  }));
  return {
    transcription_id: 't1',
    text: texts.map((t) => t[0]).join(' '),
    language,
    duration,
    speaking_duration: duration,
    segments,
    replacements: [],
    engine: { name: 'test', model: 'test', transcription_model: 'test' },
    created_at: new Date(0).toISOString(),
  };
}

function expectWellFormed(entries: Awaited<ReturnType<LocalEmotionEngine['analyze']>>): void {
  for (const e of entries) {
    expect(EMOTION_LABELS).toContain(e.label);
    expect(Object.keys(e.scores).sort()).toEqual([...EMOTION_LABELS].sort());
    expect(Object.values(e.scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
    expect(e.score).toBe(e.scores[e.label]);
  }
}

describe('LocalEmotionEngine', () => {
  const engine = new LocalEmotionEngine();

  it('declares its name and languages', () => {
    expect(engine.name).toBe('goemotions-linear');
    expect(engine.languages).toEqual(['en', 'ja']);
  });

  it('gives one entry per segment plus the whole transcript (English)', async () => {
    const document = doc('en', [
      ['i am so happy and grateful for this', 0, 4, 'SPEAKER_1'],
      ['', 4, 5, null],
      ['this is disgusting', 5, 7, 'SPEAKER_2'],
      ['the meeting is at three', 7, 27, 'SPEAKER_1'],
    ]);
    const entries = await engine.analyze({ document, language: 'en', signal: new AbortController().signal });
    expect(entries).toHaveLength(5);
    expectWellFormed(entries);
    expect(entries.map((e) => e.segment_id)).toEqual([0, 1, 2, 3, null]);
    expect(entries.map((e) => e.label)).toEqual(['joy', 'neutral', 'disgust', 'neutral', 'neutral']);
    expect(entries[0]).toMatchObject({ start: 0, end: 4, speaker: 'SPEAKER_1' });
    expect(entries[1]!.scores.neutral).toBe(1);
    expect(entries[4]).toMatchObject({ segment_id: null, start: 0, end: 30, speaker: null });
    // Duration-weighted: the 20 s neutral segment dominates, but joy and disgust are present.
    expect(entries[4]!.scores.joy).toBeGreaterThan(0.1);
    expect(entries[4]!.scores.disgust).toBeGreaterThan(0.05);
  });

  it('routes Japanese through the Japanese analyser', async () => {
    const document = doc(
      'ja',
      [
        ['嬉しいです', 0, 2, null],
        ['全然嬉しくない', 2, 4, null],
        ['怖い', 4, 5, null],
      ],
      5,
    );
    const entries = await engine.analyze({ document, language: 'ja', signal: new AbortController().signal });
    expectWellFormed(entries);
    expect(entries.map((e) => e.label).slice(0, 3)).toEqual(['joy', 'sadness', 'fear']);
    expect(entries[3]!.segment_id).toBeNull();
  });

  it('is neutral for a transcript without speech', async () => {
    const entries = await engine.analyze({
      document: doc('en', [], 12),
      language: 'en',
      signal: new AbortController().signal,
    });
    expect(entries).toEqual([
      expect.objectContaining({ segment_id: null, start: 0, end: 12, label: 'neutral', score: 1 }),
    ]);
  });

  it('stops between segments when aborted', async () => {
    const controller = new AbortController();
    const segments: Array<[string, number, number, string | null]> = Array.from({ length: 1000 }, (_, i) => [
      'i am happy',
      i,
      i + 1,
      null,
    ]);
    const promise = engine.analyze({ document: doc('en', segments, 1000), language: 'en', signal: controller.signal });
    controller.abort(new Error('cancelled'));
    await expect(promise).rejects.toThrow('cancelled');
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(engine.analyze({ document: doc('en', segments), language: 'en', signal: aborted })).rejects.toThrow(
      'already',
    );
  });
});
