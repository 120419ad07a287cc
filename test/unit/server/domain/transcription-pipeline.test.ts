// The one pipeline with its stages replaced (the boundary these tests are not about): the order of the
// stages, progress through one callback, speakers only when asked and not done by the recognizer,
// forced replacements, the document it builds, and cancellation between stages.
import { describe, expect, it } from 'vitest';
import { StageTimings } from '../../../../src-server/domain/stage-timings.js';
import {
  inThreadReplacements,
  pipelineStatus,
  TranscriptionPipeline,
  type PipelineRequest,
  type PipelineStep,
  type Recognizer,
  type SpeakerStage,
} from '../../../../src-server/domain/transcription-pipeline.js';

const word = (w: string, start: number) => ({ word: w, start, end: start + 0.4, confidence: 0.9 });

function recognizer(calls: string[], onRecognize?: () => void): Recognizer {
  return {
    name: 'test-engine',
    async recognize(request) {
      calls.push(`recognize:${request.language}:${request.vocabulary.map((v) => v.word).join(',')}`);
      request.onProgress?.(0.5);
      onRecognize?.();
      return {
        model: 'm1',
        speakingDuration: 2.4,
        segments: [
          { start: 0, end: 1.2, words: [word('the', 0), word('budget', 0.4), word('meeting', 0.8)] },
          { start: 2, end: 3.2, words: [word('next', 2), word('week', 2.4)] },
        ],
      };
    },
  };
}

const speakers = (calls: string[]): SpeakerStage => ({
  name: 'test-speakers',
  async label(_pcm, segments, regions, options) {
    calls.push(`speakers:${regions.length}:${options.numSpeakers ?? '-'}`);
    return segments.map((s, i) => ({ ...s, speaker: `SPEAKER_${i + 1}` }));
  },
});

function pipeline(calls: string[]) {
  return new TranscriptionPipeline({
    decode: {
      async decode(request) {
        calls.push(`decode:${request.audioPath}`);
        request.onProgress(1);
        return { durationSeconds: 3.5 };
      },
    },
    vocabulary: {
      async apply(segments, vocabulary) {
        calls.push(`vocabulary:${vocabulary.length}:${segments.map((s) => s.speaker ?? '-').join(',')}`);
        return { segments, rewritten: 0 };
      },
    },
    replacements: {
      async apply(segments, rules, language) {
        calls.push(`replacements:${rules.length}`);
        return inThreadReplacements.apply(segments, rules, language);
      },
    },
    speakers: speakers(calls),
  });
}

const request = (calls: string[], overrides: Partial<PipelineRequest> = {}): PipelineRequest => ({
  id: 't1',
  audioPath: '/audio.wav',
  sizeBytes: 100,
  pcmPath: '/audio.pcm',
  recognizer: recognizer(calls),
  recognizerSeparatesSpeakers: false,
  language: 'en',
  vocabulary: [{ word: 'budget' }],
  speakers: null,
  rules: [],
  transcriptionModel: 'default',
  ...overrides,
});

describe('TranscriptionPipeline', () => {
  it('runs decode, recognize, vocabulary and replacements in order and builds the document', async () => {
    const calls: string[] = [];
    const reports: Array<[PipelineStep, number]> = [];
    const { document, speakers: by } = await pipeline(calls).run(
      request(calls, { rules: [{ pattern: 'budget', replacement: 'Q3 budget' }] }),
      {
        signal: new AbortController().signal,
        timings: new StageTimings(),
        report: (stage, f) => reports.push([stage, f]),
      },
    );
    expect(calls).toEqual(['decode:/audio.wav', 'recognize:en:budget', 'vocabulary:1:-,-', 'replacements:1']);
    expect(by).toBeNull();
    expect(document).toMatchObject({
      transcription_id: 't1',
      text: 'the Q3 budget meeting next week',
      language: 'en',
      duration: 3.5,
      speaking_duration: 2.4,
      replacements: [{ pattern: 'budget', replacement: 'Q3 budget', count: 1, segment_ids: [0] }],
      engine: { name: 'test-engine', model: 'm1', transcription_model: 'default' },
    });
    expect(document.segments.map((s) => s.speaker)).toEqual([null, null]);
    // One callback: stages in order, overall progress never going back, ending at 1.
    expect([...new Set(reports.map(([stage]) => stage))]).toEqual(['decode', 'recognize', 'replacements', 'document']);
    const fractions = reports.map(([, f]) => f);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions.at(-1)).toBe(1);
    expect(pipelineStatus('decode')).toBe('CONVERTING');
    expect(pipelineStatus('recognize')).toBe('IN_PROGRESS');
  });

  it('labels speakers when asked, unless the recognizer separates them itself', async () => {
    const calls: string[] = [];
    const run = (overrides: Partial<PipelineRequest>) =>
      pipeline(calls).run(request(calls, overrides), {
        signal: new AbortController().signal,
        timings: new StageTimings(),
        report: () => undefined,
      });
    const asked = await run({ speakers: { numSpeakers: 2 } });
    // The vocabulary stage sees the speakers' segments, so a run of words never joins two speakers.
    expect(calls.slice(2)).toEqual(['speakers:2:2', 'vocabulary:1:SPEAKER_1,SPEAKER_2']);
    expect(asked.speakers).toBe('test-speakers');
    expect(asked.document.engine.speakers).toBe('test-speakers');
    expect(asked.document.segments.map((s) => s.speaker)).toEqual(['SPEAKER_1', 'SPEAKER_2']);

    calls.length = 0;
    const itself = await run({ speakers: { numSpeakers: 2 }, recognizerSeparatesSpeakers: true });
    expect(calls.some((c) => c.startsWith('speakers'))).toBe(false);
    expect(itself.speakers).toBeNull();
  });

  it('stops between stages once cancelled', async () => {
    const calls: string[] = [];
    const controller = new AbortController();
    const running = pipeline(calls).run(
      request(calls, {
        recognizer: recognizer(calls, () => controller.abort(new Error('job cancelled'))),
        speakers: {},
        rules: [{ pattern: 'a', replacement: 'b' }],
      }),
      { signal: controller.signal, timings: new StageTimings(), report: () => undefined },
    );
    await expect(running).rejects.toThrow('job cancelled');
    expect(calls).toEqual(['decode:/audio.wav', 'recognize:en:budget']);
  });
});
