import { describe, expect, it } from 'vitest';
import { applyOperations } from '../../../src-shared/transcript-editing.js';
import type { TranscriptDocument } from '../../../src-shared/transcript-document.js';

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

const corrected = (document: TranscriptDocument, text: string): string | null => {
  const outcome = applyOperations(document, [{ kind: 'text', segmentId: 0, text }]);
  return outcome.ok ? outcome.document.text : null;
};

describe('a corrected segment', () => {
  it('joins a corrected Japanese transcript without spaces, and an English one with them', () => {
    expect(corrected(doc('ja', ['ききとりです。', '以上です。']), '聞き取りです。')).toBe('聞き取りです。以上です。');
    expect(corrected(doc('en', ['Hallo.', 'Bye.']), 'Hello.')).toBe('Hello. Bye.');
  });
});
