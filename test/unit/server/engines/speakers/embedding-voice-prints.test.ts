// Naming separated speakers by a speaker-embedding model's cosine scores (decision 0097): the nearest voice
// must reach the model's similarity threshold and be clearly nearer than the team's next voice; a voice
// alone needs the stricter single-voice threshold; prints of another kind or model are never pooled in.
import { describe, expect, it } from 'vitest';
import type { EnrolledVoice } from '../../../../../src-server/domain/voice-prints.js';
import {
  embeddingPrintKind,
  matchEmbeddings,
  pooledEmbedding,
} from '../../../../../src-server/engines/speakers/embedding-voice-prints.js';
import { unit } from '../../../../../src-server/engines/speakers/onnx-speaker-embedding.js';
import { OFFICIAL_SPEAKER_MODELS } from '../../../../../src-server/models/speaker-models.js';

const match = { minSimilarity: 0.5, ratio: 0.8, aloneMinSimilarity: 0.7, minSpeechSeconds: 2 };
const v = (...x: number[]) => unit(Float32Array.from(x));
const voice = (name: string, embedding: Float32Array) => ({
  voice: { speakerId: `id-${name}`, name, prints: [] } as EnrolledVoice,
  embedding,
});
/** A unit vector at `similarity` to [1, 0, 0], on the side of `side` (1: y, 2: z). */
const at = (similarity: number, side = 1) => {
  const x = [similarity, 0, 0];
  x[side] = Math.sqrt(1 - similarity ** 2);
  return Float32Array.from(x);
};

describe('matchEmbeddings', () => {
  it('names each speaker by its nearest voice, a voice once, with 0.5 at the threshold and 1 when identical', () => {
    const names = matchEmbeddings(
      [
        { label: 'SPEAKER_1', embedding: v(1, 0, 0) },
        { label: 'SPEAKER_2', embedding: v(0, 1, 0) },
        { label: 'SPEAKER_3', embedding: v(0, 0.9, 0.1) },
      ],
      [voice('Alice', v(1, 0, 0)), voice('Bob', v(0, 1, 0))],
      match,
    );
    expect(names.get('SPEAKER_1')).toEqual({ speakerId: 'id-Alice', name: 'Alice', confidence: 1 });
    expect(names.get('SPEAKER_2')).toMatchObject({ name: 'Bob', confidence: 1 });
    expect(names.has('SPEAKER_3')).toBe(false);
    const edge = matchEmbeddings(
      [{ label: 'S', embedding: at(0.5) }],
      [voice('A', v(1, 0, 0)), voice('B', v(0, 0, 1))],
      match,
    );
    expect(edge.get('S')?.confidence).toBe(0.5);
  });

  it('refuses a speaker under the threshold, or not clearly nearer than the next voice', () => {
    const far = matchEmbeddings(
      [{ label: 'S', embedding: at(0.45) }],
      [voice('A', v(1, 0, 0)), voice('B', v(0, 0, 1))],
      match,
    );
    expect(far.size).toBe(0);
    // 0.7 to Alice, 0.68 to Bob: both over the threshold, but distances 0.3 and 0.32, a ratio of 0.94 > 0.8.
    const speaker = Float32Array.from([0.7, 0.68, Math.sqrt(1 - 0.49 - 0.68 ** 2)]);
    const voices = [voice('A', v(1, 0, 0)), voice('B', v(0, 1, 0))];
    expect(matchEmbeddings([{ label: 'S', embedding: speaker }], voices, match).size).toBe(0);
    // Nearer to Alice by enough: 0.8 and 0.4 (distances 0.2 and 0.6).
    const clear = Float32Array.from([0.8, 0.4, Math.sqrt(1 - 0.64 - 0.16)]);
    expect(matchEmbeddings([{ label: 'S', embedding: clear }], voices, match).get('S')?.name).toBe('A');
  });

  it('needs the single-voice threshold when only one voice is compared', () => {
    const speakers = [{ label: 'S', embedding: at(0.65) }];
    expect(matchEmbeddings(speakers, [voice('A', v(1, 0, 0))], match).size).toBe(0);
    expect(matchEmbeddings(speakers, [voice('A', v(1, 0, 0)), voice('B', v(0, 0, 1))], match).get('S')?.name).toBe('A');
  });
});

describe('pooledEmbedding', () => {
  it('averages a voice’s prints of this model weighted by their speech, and ignores other kinds', () => {
    const kind = embeddingPrintKind(OFFICIAL_SPEAKER_MODELS[0]!);
    expect(kind).toBe('embedding:wespeaker-resnet34:9fea6516d7ad');
    const pooled = pooledEmbedding(
      [
        { kind, values: [3, 1, 0] },
        { kind, values: [1, 0, 1] },
        { kind: 'mfcc-gaussian-v1', values: [100, 0, 0, 1] },
        { kind: 'embedding:other:000000000000', values: [50, 0, 1] },
      ],
      kind,
    )!;
    expect([...pooled].map((x) => Math.round(x * 1000) / 1000)).toEqual([0.949, 0.316]);
    expect(pooledEmbedding([{ kind: 'mfcc-gaussian-v1', values: [1, 2] }], kind)).toBeNull();
  });
});
