// diarization-high with a speaker model (decision 0097): separated speakers whose model embeddings reach the
// model's same-speaker similarity are merged, most similar first, never below minSpeakers; only for the
// enhanced quality without a count, and never without a model or without the setting.
import { describe, expect, it } from 'vitest';
import {
  mergeSpeakersByModel,
  relabel,
  sameVoices,
  type SpeakerEmbedder,
  type SpeakerEmbedding,
} from '../../../../../src-server/engines/speakers/embedding-speaker-merge.js';
import { unit } from '../../../../../src-server/engines/speakers/onnx-speaker-embedding.js';
import type { SpeakerTurn } from '../../../../../src-server/engines/speakers/speaker-separation.js';

const v = (...x: number[]) => unit(Float32Array.from(x));
const speaker = (label: string, embedding: Float32Array, speechSeconds = 10) => ({ label, embedding, speechSeconds });
const match = { minSimilarity: 0.5, ratio: 0.8, aloneMinSimilarity: 0.6, minSpeechSeconds: 2 };

describe('sameVoices', () => {
  it('merges the pairs that reach the threshold, most similar first, into the first listed speaker', () => {
    const into = sameVoices(
      [speaker('SPEAKER_1', v(1, 0, 0)), speaker('SPEAKER_2', v(0, 1, 0)), speaker('SPEAKER_3', v(0.95, 0.05, 0.1))],
      0.7,
      1,
    );
    expect([...into]).toEqual([['SPEAKER_3', 'SPEAKER_1']]);
  });

  it('compares a merged group by its speech-weighted mean', () => {
    // 1 and 2 merge (0.8); their mean, weighted 9:1 towards 1, is then far from 3, which is near 2 alone.
    const into = sameVoices(
      [speaker('A', v(1, 0, 0), 9), speaker('B', v(0.8, 0.6, 0), 1), speaker('C', v(0.2, 1, 0))],
      0.75,
      1,
    );
    expect([...into]).toEqual([['B', 'A']]);
  });

  it('keeps at least minSpeakers speakers and merges nothing below the threshold', () => {
    const close = [speaker('A', v(1, 0)), speaker('B', v(0.99, 0.1)), speaker('C', v(0.98, 0.2))];
    expect(sameVoices(close, 0.5, 1).size).toBe(2);
    expect(sameVoices(close, 0.5, 2).size).toBe(1);
    expect(sameVoices(close, 0.999, 1).size).toBe(0);
  });
});

describe('relabel', () => {
  it('renames merged speakers, joins touching turns of one speaker and renumbers by first appearance', () => {
    const turns: SpeakerTurn[] = [
      { start: 0, end: 2, speaker: 'SPEAKER_1' },
      { start: 2, end: 4, speaker: 'SPEAKER_2' },
      { start: 4, end: 6, speaker: 'SPEAKER_3' },
      { start: 7, end: 8, speaker: 'SPEAKER_2' },
    ];
    expect(relabel(turns, new Map([['SPEAKER_2', 'SPEAKER_1']]))).toEqual([
      { start: 0, end: 4, speaker: 'SPEAKER_1' },
      { start: 4, end: 6, speaker: 'SPEAKER_2' },
      { start: 7, end: 8, speaker: 'SPEAKER_1' },
    ]);
  });
});

describe('mergeSpeakersByModel', () => {
  const turns: SpeakerTurn[] = [
    { start: 0, end: 5, speaker: 'SPEAKER_1' },
    { start: 5, end: 10, speaker: 'SPEAKER_2' },
  ];
  const embedder = (sameSpeakerSimilarity: number | undefined, asked: string[][] = []): SpeakerEmbedder => ({
    speakerEmbeddings: async (_pcm, bySpeaker) => {
      asked.push([...bySpeaker.keys()]);
      const speakers = new Map<string, SpeakerEmbedding>(
        [...bySpeaker.keys()].map((label) => [label, { embedding: v(1, 0), speechSeconds: 5 }]),
      );
      return {
        match: { ...match, ...(sameSpeakerSimilarity !== undefined ? { sameSpeakerSimilarity } : {}) },
        speakers,
      };
    },
  });
  const signal = AbortSignal.timeout(10_000);

  it('merges one voice split in two when the quality is enhanced and no count is given', async () => {
    const asked: string[][] = [];
    const merged = await mergeSpeakersByModel(embedder(0.5, asked))('x.pcm', turns, { quality: 'enhanced', signal });
    expect(asked).toEqual([['SPEAKER_1', 'SPEAKER_2']]);
    expect(merged).toEqual([{ start: 0, end: 10, speaker: 'SPEAKER_1' }]);
  });

  it('leaves the turns alone for the standard quality, a given count, minSpeakers, or a model without the setting', async () => {
    const asked: string[][] = [];
    const refine = mergeSpeakersByModel(embedder(0.5, asked));
    expect(await refine('x.pcm', turns, { quality: 'standard', signal })).toEqual(turns);
    expect(await refine('x.pcm', turns, { quality: 'enhanced', numSpeakers: 2, signal })).toEqual(turns);
    expect(asked).toEqual([]);
    expect(await refine('x.pcm', turns, { quality: 'enhanced', minSpeakers: 2, signal })).toEqual(turns);
    expect(await mergeSpeakersByModel(embedder(undefined))('x.pcm', turns, { quality: 'enhanced', signal })).toEqual(
      turns,
    );
  });

  it('passes the turns through when no model is installed', async () => {
    const none: SpeakerEmbedder = { speakerEmbeddings: async () => null };
    expect(await mergeSpeakersByModel(none)('x.pcm', turns, { quality: 'enhanced', signal })).toEqual(turns);
  });
});
