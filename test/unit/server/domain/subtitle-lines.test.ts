import { describe, expect, it } from 'vitest';
import { subtitleLines } from '../../../../src-shared/subtitle-lines.js';
import { subtitleCues } from '../../../../src-shared/transcript-render.js';
import { renderTranscript } from '../../../../src-server/domain/transcript-formats.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';
import { joinWords, wordSeparator } from '../../../../src-shared/word-text.js';

describe('subtitleLines', () => {
  it('breaks Japanese after each sentence end', () => {
    expect(subtitleLines('今日は晴れです。明日は雨でしょうか？はい！', 'ja')).toBe(
      '今日は晴れです。\n明日は雨でしょうか？\nはい！',
    );
  });

  it('breaks after a comma only once the line is long enough to stand alone', () => {
    expect(subtitleLines('はい、そうです。', 'ja')).toBe('はい、そうです。');
    expect(subtitleLines('新しい聞き取りの仕組みについては、来週の会議で説明します。', 'ja')).toBe(
      '新しい聞き取りの仕組みについては、\n来週の会議で説明します。',
    );
  });

  it('keeps closing quotes and repeated marks with their sentence, and drops no text', () => {
    const text = '「本当ですか？！」と聞きました。ええ';
    const lines = subtitleLines(text, 'ja');
    expect(lines).toBe('「本当ですか？！」\nと聞きました。\nええ');
    expect(lines.replace(/\n/g, '')).toBe(text);
  });

  it('leaves languages written with spaces, and text with nothing to break, as they are', () => {
    expect(subtitleLines('Hello there. General Kenobi!', 'en')).toBe('Hello there. General Kenobi!');
    expect(subtitleLines('聞き取り', 'ja')).toBe('聞き取り');
    expect(subtitleLines('你好。再见。', 'zh')).toBe('你好。\n再见。');
  });
});

describe('Japanese transcripts as text and subtitles', () => {
  const doc: TranscriptDocument = {
    transcription_id: 't',
    text: '今日は晴れです。明日は雨です。',
    language: 'ja',
    duration: 4,
    speaking_duration: 4,
    segments: [
      { id: 0, start: 0, end: 4, speaker: 'SPEAKER_1', text: '今日は晴れです。明日は雨です。', words: [] },
      { id: 1, start: 4.2, end: 5, speaker: 'SPEAKER_2', text: 'はい。', words: [] },
    ],
    replacements: [],
    engine: { name: 'e', model: 'm', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00.000Z',
  };

  it('joins words without spaces', () => {
    expect(joinWords([{ word: '今日' }, { word: 'は' }, { word: '晴れ' }], 'ja')).toBe('今日は晴れ');
    expect(wordSeparator('ja-JP')).toBe('');
    expect(wordSeparator('en')).toBe(' ');
  });

  it('renders SRT and WebVTT cues with a line per sentence', () => {
    expect(subtitleCues(doc, 'vtt').cues[0]!.text).toBe('<v SPEAKER_1>今日は晴れです。\n明日は雨です。');
    // SRT's speaker prefix takes room on the first line (13 characters, half-width ones counting half),
    // so the break moves; the text stays whole.
    const srt = renderTranscript(doc, 'srt');
    expect(srt).toContain('00:00:00,000 --> 00:00:04,000\nSPEAKER_1: 今日は\n');
    expect(srt.replace(/^.*-->.*$|^\d+$|\n/gm, '')).toBe('SPEAKER_1: 今日は晴れです。明日は雨です。SPEAKER_2: はい。');
    expect(renderTranscript(doc, 'txt')).toBe('SPEAKER_1: 今日は晴れです。明日は雨です。\nSPEAKER_2: はい。\n');
  });

  it('names no speaker when there is only one and the team named none', () => {
    const alone = { ...doc, segments: doc.segments.slice(0, 1) };
    expect(renderTranscript(alone, 'txt')).toBe('今日は晴れです。明日は雨です。\n');
    expect(renderTranscript(alone, 'vtt')).not.toContain('<v ');
    expect(renderTranscript(alone, 'srt')).not.toContain('SPEAKER_1');
    expect(renderTranscript({ ...alone, speaker_names: { SPEAKER_1: '田中' } }, 'txt')).toBe(
      '田中: 今日は晴れです。明日は雨です。\n',
    );
  });
});
