// Renders a transcript document as SRT, WebVTT or plain text.
import { stringifySync, type NodeList } from 'subtitle';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';

export const TRANSCRIPT_FORMATS = ['json', 'srt', 'vtt', 'txt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const CONTENT_TYPES: Record<TranscriptFormat, string> = {
  json: 'application/json; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

export function renderTranscript(document: TranscriptDocument, format: TranscriptFormat): string {
  switch (format) {
    case 'json':
      return JSON.stringify(document);
    case 'txt':
      return document.segments.map((s) => (s.speaker ? `${s.speaker}: ${s.text}` : s.text)).join('\n') + '\n';
    case 'srt':
    case 'vtt': {
      const cues: NodeList = document.segments
        .filter((s) => s.text.length > 0)
        .map((s) => ({
          type: 'cue' as const,
          data: {
            start: Math.round(s.start * 1000),
            end: Math.round(s.end * 1000),
            // WebVTT has a voice tag for speakers; SRT conventionally prefixes the name.
            text: s.speaker ? (format === 'vtt' ? `<v ${s.speaker}>${s.text}` : `${s.speaker}: ${s.text}`) : s.text,
          },
        }));
      return stringifySync(cues, { format: format === 'vtt' ? 'WebVTT' : 'SRT' });
    }
  }
}
