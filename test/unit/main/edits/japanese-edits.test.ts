import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../../src-main/edits/transcript-edits.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';

const doc = (language: string, texts: string[]): TranscriptDocument => ({
  transcription_id: 't',
  text: texts.join(''),
  language,
  duration: 2,
  speaking_duration: 2,
  segments: texts.map((text, id) => ({ id, start: id, end: id + 1, speaker: null, text, words: [] })),
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2026-01-01T00:00:00.000Z',
});

describe('applyEdits', () => {
  it('joins a corrected Japanese transcript without spaces, and an English one with them', () => {
    const edit = new Map([[0, { segmentId: 0, text: '聞き取りです。', words: [] }]]);
    expect(applyEdits(doc('ja', ['ききとりです。', '以上です。']), edit).text).toBe('聞き取りです。以上です。');
    const en = new Map([[0, { segmentId: 0, text: 'Hello.', words: [] }]]);
    expect(applyEdits(doc('en', ['Hallo.', 'Bye.']), en).text).toBe('Hello. Bye.');
  });
});
