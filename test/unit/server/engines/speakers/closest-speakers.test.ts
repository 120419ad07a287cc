// Step 4c's merge order (decision 0091): the pair of speakers one Gaussian explains best together, judged as if
// both had as much speech, so that a speaker with little speech is not merged into another merely for being small.
import { describe, expect, it } from 'vitest';
import { closestSpeakers } from '../../../../../src-server/engines/speakers/clustering.js';
import { BlockStore, CEPSTRA, DIMS, TRI } from '../../../../../src-server/engines/speakers/speaker-features.js';
import { seededRandom } from '../../../../../src-shared/seeded-random.js';

const FRAMES_PER_BLOCK = 25;

/** Appends `count` blocks of independent normal cepstra around `mean` (plus a fixed shape), labelled `label`. */
function addVoice(blocks: BlockStore, labels: number[], label: number, mean: number, count: number, seed: number) {
  const random = seededRandom(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  for (let k = 0; k < count; k++) {
    const b = blocks.add(0, blocks.count * 0.25, (blocks.count + 1) * 0.25);
    for (let f = 0; f < FRAMES_PER_BLOCK; f++) {
      const x = Array.from({ length: CEPSTRA }, (_, d) => mean + (d % 3) + normal());
      blocks.n[b]!++;
      x.forEach((v, d) => {
        blocks.sum[b * DIMS + d]! += v;
        blocks.sq[b * DIMS + d]! += v * v;
      });
      for (let i = 0, t = b * TRI; i < CEPSTRA; i++)
        for (let j = i; j < CEPSTRA; j++) blocks.cross[t++]! += x[i]! * x[j]!;
    }
    labels.push(label);
  }
}

describe('closestSpeakers', () => {
  it('merges two similar speakers with much speech before a distinct speaker with little', () => {
    const blocks = new BlockStore();
    const labels: number[] = [];
    addVoice(blocks, labels, 0, 0, 400, 1);
    addVoice(blocks, labels, 1, 0.5, 400, 2);
    addVoice(blocks, labels, 2, 2, 4, 3);
    // Per frame, unweighted, speaker 2 (1 s of speech) would join speaker 1 (100 s) first: 0.15 against 0.38.
    expect(closestSpeakers(blocks, Int32Array.from(labels))).toMatchObject({ a: 0, b: 1 });
  });

  it('finds nothing to merge with fewer than two speakers', () => {
    const blocks = new BlockStore();
    const labels: number[] = [];
    addVoice(blocks, labels, 0, 0, 10, 1);
    expect(closestSpeakers(blocks, Int32Array.from(labels))).toBeUndefined();
  });
});
