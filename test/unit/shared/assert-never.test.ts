import { describe, expect, it } from 'vitest';
import { assertNever } from '../../../src-shared/assert-never.js';

describe('assertNever', () => {
  it('throws, naming what was unhandled and the value, when a value from outside the union reaches it', () => {
    expect(() => assertNever('later-kind' as never, 'engine error kind')).toThrow(
      'Unhandled engine error kind: "later-kind"',
    );
  });
});
