// How a transcript document becomes text and subtitle cues. Shared by kikitori-server (its
// `&format=srt|vtt|txt` downloads) and the desktop app's export, so both render the same way.
// Pure: the caller turns cues into SRT/WebVTT with the `subtitle` package (which needs node streams,
// so it stays out of src-shared). No electron, node or DOM imports here.
import {
  buildCues,
  DEFAULT_CUE_OPTIONS,
  type CueOptions,
  type CueReport,
  type CueTranslation,
  type SpeakerStyle,
} from './subtitle-cues.js';
import type { TranscriptDocument, TranscriptSegment } from './transcript-document.js';

export interface TranscriptRenderOptions {
  /** Prefix each segment with its speaker, when the segment has one. */
  speakers: boolean;
  /** Prefix each line of plain text with its start time ([hh:mm:ss]). Subtitles always carry times. */
  timestamps: boolean;
}

/** What the server has always served: speakers on, no timestamps in plain text. */
export const DEFAULT_RENDER_OPTIONS: TranscriptRenderOptions = { speakers: true, timestamps: false };

/** 3725.4 -> "01:02:05" (or "01:02:05.400" with milliseconds). */
export function formatClock(seconds: number, withMilliseconds = false): string {
  const totalMs = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(totalMs / 3_600_000);
  const m = Math.floor((totalMs % 3_600_000) / 60_000);
  const s = Math.floor((totalMs % 60_000) / 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const clock = `${pad(h)}:${pad(m)}:${pad(s)}`;
  return withMilliseconds ? `${clock}.${pad(totalMs % 1000, 3)}` : clock;
}

/** One line per segment (empty segments keep their line), newline-terminated. */
export function transcriptPlainText(
  document: TranscriptDocument,
  options: TranscriptRenderOptions = DEFAULT_RENDER_OPTIONS,
): string {
  return (
    document.segments
      .map((s) => {
        const time = options.timestamps ? `[${formatClock(s.start)}] ` : '';
        return `${time}${speakerPrefix(s, options)}${s.text}`;
      })
      .join('\n') + '\n'
  );
}

/** What a download or an export may set about cues; what it leaves out is the default (DEFAULT_CUE_OPTIONS). */
export type SubtitleOptions = Partial<
  Pick<CueOptions, 'maxCharsPerLine' | 'maxLinesPerCue' | 'maxCueDuration' | 'minGap'>
>;

export interface SubtitleRenderOptions {
  /**
   * true: the speaker as each format expects it (WebVTT's voice tag, SRT's "Name: " prefix); false: none;
   * or a style of the user's choice.
   */
  speakers: boolean | SpeakerStyle;
  subtitles?: SubtitleOptions;
  translation?: CueTranslation | null;
}

/**
 * Subtitle cues for SRT or WebVTT, cut to subtitle rules (./subtitle-cues.ts), with the ones that read too
 * fast marked. The server's downloads and the app's export both come here.
 */
export function subtitleCues(
  document: TranscriptDocument,
  format: 'srt' | 'vtt',
  options: SubtitleRenderOptions = { speakers: DEFAULT_RENDER_OPTIONS.speakers },
): CueReport {
  const speakers =
    typeof options.speakers === 'string'
      ? options.speakers
      : options.speakers
        ? format === 'vtt'
          ? 'voice'
          : 'prefix'
        : 'none';
  const chosen = options.subtitles ?? {};
  return buildCues(document, {
    ...DEFAULT_CUE_OPTIONS,
    maxCharsPerLine:
      chosen.maxCharsPerLine !== undefined ? chosen.maxCharsPerLine : DEFAULT_CUE_OPTIONS.maxCharsPerLine,
    maxLinesPerCue: chosen.maxLinesPerCue ?? DEFAULT_CUE_OPTIONS.maxLinesPerCue,
    maxCueDuration: chosen.maxCueDuration ?? DEFAULT_CUE_OPTIONS.maxCueDuration,
    minGap: chosen.minGap ?? DEFAULT_CUE_OPTIONS.minGap,
    format,
    speakers,
    translation: options.translation ?? null,
  });
}

function speakerPrefix(segment: TranscriptSegment, options: Pick<TranscriptRenderOptions, 'speakers'>): string {
  return options.speakers && segment.speaker ? `${segment.speaker}: ` : '';
}
