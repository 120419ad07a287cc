import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../../src-main/app-failure.js';
import { validateRequest } from '../../../../src-main/ipc/request-validator.js';

describe('models requests', () => {
  it('take a catalogue name, and refuse paths and junk next to the field', () => {
    expect(validateRequest('models:download', { name: 'large-v3-turbo' })).toEqual({ name: 'large-v3-turbo' });
    expect(validateRequest('models:delete', { name: 'base.en' })).toEqual({ name: 'base.en' });
    for (const bad of [
      { name: '../etc/passwd' },
      { name: '' },
      { name: 'a'.repeat(65) },
      { name: 'base', extra: 1 },
      {},
    ]) {
      let error: unknown;
      try {
        validateRequest('models:cancel', bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppFailure);
      expect((error as AppFailure).code).toBe('validation');
    }
    expect(validateRequest('models:list', undefined)).toBeUndefined();
  });
});
