import { describe, expect, it } from 'vitest';
import { validationField } from '../../../../src-server/http/error-handler.js';

const issue = (instancePath: string, keyword: string, params: Record<string, unknown> = {}) => ({ instancePath, keyword, params });

describe('validationField', () => {
  it('turns the instance path into a dot-separated field', () => {
    expect(validationField([issue('/words/0/reading', 'maxLength', { limit: 400 })])).toBe('words.0.reading');
  });

  it('adds the property a required or additionalProperties issue names', () => {
    expect(validationField([issue('', 'required', { missingProperty: 'filename' })])).toBe('filename');
    expect(validationField([issue('/words/2', 'required', { missingProperty: 'word' })])).toBe('words.2.word');
    expect(validationField([issue('', 'additionalProperties', { additionalProperty: 'colour' })])).toBe('colour');
  });

  it('takes the deepest path among the branches of a union', () => {
    const issues = [issue('/language', 'type', { type: 'string' }), issue('/language/1', 'pattern'), issue('/language', 'anyOf')];
    expect(validationField(issues)).toBe('language.1');
  });

  it('decodes JSON Pointer escapes', () => {
    expect(validationField([issue('/a~1b/c~0d', 'type')])).toBe('a/b.c~d');
  });

  it('names no field when the whole body is wrong', () => {
    expect(validationField([issue('', 'type', { type: 'object' })])).toBeUndefined();
    expect(validationField([])).toBeUndefined();
  });
});
