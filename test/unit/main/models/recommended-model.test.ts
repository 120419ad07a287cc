import { describe, expect, it } from 'vitest';
import {
  preferredModelName,
  recommendModel,
  type RecommendableModel,
} from '../../../../src-main/models/recommended-model.js';

const GIB = 1024 ** 3;
const official = (name: string, memoryGb: number, patch: Partial<RecommendableModel> = {}): RecommendableModel => ({
  name,
  multilingual: !name.endsWith('.en'),
  quantized: name.includes('-q'),
  accuracy: 'good',
  memoryBytes: memoryGb * GIB,
  ...patch,
});
const CATALOGUE = [
  official('tiny', 0.4, { accuracy: 'basic' }),
  official('base', 0.5),
  official('base.en', 0.5),
  official('small', 1, { accuracy: 'better' }),
  official('large-v3-turbo', 2, { accuracy: 'great' }),
  official('large-v3', 4, { accuracy: 'best' }),
];

describe('recommended speech model', () => {
  it.each([
    [2, 4, 'tiny'],
    [3.9, 8, 'tiny'],
    [4, 2, 'base'],
    [7.9, 8, 'base'],
    [8, 8, 'small'],
    [15.9, 16, 'small'],
    [16, 4, 'small'], // room, but too few cores for large-v3-turbo's encoder
    [16, 8, 'large-v3-turbo'],
    [64, 32, 'large-v3-turbo'],
  ])('%d GiB and %d cores: %s', (gib, cpuCount, expected) => {
    const machine = { totalMemoryBytes: gib * GIB, cpuCount };
    expect(preferredModelName(machine)).toBe(expected);
    expect(recommendModel(machine, CATALOGUE)).toBe(expected);
  });

  it('with a catalogue of other names: the most accurate multilingual, unquantized model that fits an eighth of memory', () => {
    const machine = { totalMemoryBytes: 8 * GIB, cpuCount: 4 };
    const mirror = [
      official('mini', 0.2, { accuracy: 'basic' }),
      official('mid', 0.9, { accuracy: 'better' }),
      official('mid-q5', 0.5, { accuracy: 'better', quantized: true }),
      official('mid-english', 0.9, { accuracy: 'great', multilingual: false }),
      official('huge', 3, { accuracy: 'best' }),
    ];
    expect(recommendModel(machine, mirror)).toBe('mid');
    expect(recommendModel({ totalMemoryBytes: 2 * GIB, cpuCount: 2 }, mirror)).toBe('mini');
    expect(recommendModel({ totalMemoryBytes: 1 * GIB, cpuCount: 2 }, mirror)).toBeNull();
    expect(recommendModel(machine, [])).toBeNull();
  });
});
