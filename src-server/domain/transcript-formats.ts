// Renders a transcript document as SRT, WebVTT or plain text.
import { stringifySync, type NodeList } from 'subtitle';
import { assertNever } from '../../src-shared/assert-never.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import type { SpeakerStyle } from '../../src-shared/subtitle-cues.js';
import { subtitleCues, transcriptPlainText, type SubtitleOptions } from '../../src-shared/transcript-render.js';

export const TRANSCRIPT_FORMATS = ['json', 'srt', 'vtt', 'txt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const CONTENT_TYPES: Record<TranscriptFormat, string> = {
  json: 'application/json; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** Subtitles and text name speakers by the names the team gave them (`speaker_names`), else by label. */
function withSpeakerNames(document: TranscriptDocument): TranscriptDocument {
  const names = document.speaker_names ?? {};
  if (Object.keys(names).length === 0) return document;
  return {
    ...document,
    segments: document.segments.map((s) => (s.speaker && names[s.speaker] ? { ...s, speaker: names[s.speaker]! } : s)),
  };
}

/**
 * The server's own renderings name speakers when the transcript has two or more, or when the team named one.
 * Speakers are separated by default (decision 0057): a recording with one voice gains nothing from
 * "SPEAKER_1: " on every line. (The app's export has its own option, which the user sets.)
 */
function namesSpeakers(document: TranscriptDocument): boolean {
  const labels = new Set(document.segments.flatMap((s) => (s.speaker ? [s.speaker] : [])));
  return labels.size > 1 || Object.keys(document.speaker_names ?? {}).length > 0;
}

/**
 * What a download may ask for beyond the format (decision 0067): the app's export options. Left out, each is
 * what the server has always served.
 */
export interface DownloadOptions {
  speakers?: SpeakerStyle;
  /** Plain text only. */
  timestamps?: boolean;
  /** SRT and WebVTT only. */
  subtitles?: SubtitleOptions;
}

export function renderTranscript(
  stored: TranscriptDocument,
  format: TranscriptFormat,
  options: DownloadOptions = {},
): string {
  const document = format === 'json' ? stored : withSpeakerNames(stored);
  const speakers = options.speakers ?? namesSpeakers(stored);
  switch (format) {
    case 'json':
      return JSON.stringify(document);
    case 'txt':
      return transcriptPlainText(document, {
        speakers: typeof speakers === 'string' ? speakers !== 'none' : speakers,
        timestamps: options.timestamps ?? false,
      });
    case 'srt':
    case 'vtt': {
      const cues: NodeList = subtitleCues(document, format, { speakers, subtitles: options.subtitles }).cues.map(
        ({ start, end, text }) => ({ type: 'cue' as const, data: { start, end, text } }),
      );
      return stringifySync(cues, { format: format === 'vtt' ? 'WebVTT' : 'SRT' });
    }
    default:
      return assertNever(format, 'transcript format');
  }
}
