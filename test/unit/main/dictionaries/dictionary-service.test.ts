// What makes two dictionary words the same entry (decision 0102). The service's refusals, against a real
// server, are in test/integration/main/dictionary-service.test.ts.
import { describe, expect, it } from 'vitest';
import { sameWordKey } from '../../../../src-main/dictionaries/dictionary-service.js';

describe('sameWordKey', () => {
  it('folds case, width and surrounding spaces of word and reading; an absent reading is an empty one', () => {
    expect(sameWordKey({ word: ' Ｋｉｋｉｔｏｒｉ ', reading: 'ｷｷﾄﾘ' })).toBe(
      sameWordKey({ word: 'kikitori', reading: 'キキトリ' }),
    );
    expect(sameWordKey({ word: 'Kikitori', reading: null })).toBe(sameWordKey({ word: 'kikitori', reading: '  ' }));
    expect(sameWordKey({ word: 'Kikitori', reading: 'a' })).not.toBe(sameWordKey({ word: 'Kikitori', reading: 'b' }));
  });
});
