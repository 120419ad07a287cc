// Export of a transcript as TXT, SRT, WebVTT, JSON or DOCX, with or without speakers and timestamps.
// Text and subtitles render through src-shared/transcript-render.ts and subtitle-cues.ts, as the server's
// downloads do; subtitles take the export's cue options and, for dual-language cues, a translation.
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { stringifySync, type NodeList } from 'subtitle';
import type {
  ExportFormat,
  ExportOptions,
  FastSubtitle,
  SubtitleExportOptions,
  SubtitleReport,
} from '../../src-shared/ipc-contract.js';
import {
  DEFAULT_CUE_OPTIONS,
  plainCueText,
  type CueReport,
  type CueTranslation,
} from '../../src-shared/subtitle-cues.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { formatClock, subtitleCues, transcriptPlainText } from '../../src-shared/transcript-render.js';
import { assertNever } from '../../src-shared/assert-never.js';
import { safeFileName } from '../cache/safe-path.js';
import type { FileFilter } from '../host-capabilities.js';

export interface ExportResult {
  data: string | Buffer;
  extension: string;
  /** SRT and WebVTT: how many cues, and which read too fast. */
  subtitles?: SubtitleReport;
}

export const EXPORT_FILTERS: Record<ExportFormat, FileFilter> = {
  txt: { name: 'Text', extensions: ['txt'] },
  srt: { name: 'SubRip subtitles', extensions: ['srt'] },
  vtt: { name: 'WebVTT subtitles', extensions: ['vtt'] },
  json: { name: 'JSON', extensions: ['json'] },
  docx: { name: 'Word document', extensions: ['docx'] },
};

/** What subtitles are cut by when the options say nothing: the server's downloads do the same. */
export const DEFAULT_SUBTITLE_OPTIONS: SubtitleExportOptions = {
  maxCharsPerLine: DEFAULT_CUE_OPTIONS.maxCharsPerLine,
  maxLinesPerCue: DEFAULT_CUE_OPTIONS.maxLinesPerCue,
  maxCueDuration: DEFAULT_CUE_OPTIONS.maxCueDuration,
  minGap: DEFAULT_CUE_OPTIONS.minGap,
  speakerStyle: 'voice',
  translation: null,
};

/** SRT or WebVTT text of a transcript, with how many cues read too fast. */
export function renderSubtitles(
  document: TranscriptDocument,
  format: 'srt' | 'vtt',
  options: Pick<ExportOptions, 'speakers' | 'subtitles'>,
  translation: CueTranslation | null = null,
): { text: string; report: CueReport } {
  const subtitles = options.subtitles ?? DEFAULT_SUBTITLE_OPTIONS;
  const report = subtitleCues(document, format, {
    speakers: options.speakers ? subtitles.speakerStyle : 'none',
    subtitles,
    translation,
  });
  const cues: NodeList = report.cues.map(({ start, end, text }) => ({
    type: 'cue' as const,
    data: { start, end, text },
  }));
  return { text: stringifySync(cues, { format: format === 'vtt' ? 'WebVTT' : 'SRT' }), report };
}

/** The document, without what the options leave out. */
export function exportJson(document: TranscriptDocument, options: ExportOptions): string {
  const segments = document.segments.map((s) => ({
    id: s.id,
    ...(options.timestamps ? { start: s.start, end: s.end } : {}),
    ...(options.speakers ? { speaker: s.speaker } : {}),
    text: s.text,
    ...(options.timestamps ? { words: s.words } : {}),
  }));
  return `${JSON.stringify({ ...document, segments }, null, 2)}\n`;
}

export async function exportDocx(document: TranscriptDocument, options: ExportOptions, title: string): Promise<Buffer> {
  const paragraphs = document.segments
    .filter((s) => s.text.length > 0)
    .map((s) => {
      const runs: TextRun[] = [];
      if (options.timestamps) runs.push(new TextRun({ text: `[${formatClock(s.start)}] `, color: '808080' }));
      if (options.speakers && s.speaker) runs.push(new TextRun({ text: `${s.speaker}: `, bold: true }));
      runs.push(new TextRun(s.text));
      return new Paragraph({ children: runs, spacing: { after: 120 } });
    });
  const doc = new Document({
    title,
    creator: 'Kikitori',
    sections: [
      {
        children: [
          new Paragraph({ text: title, heading: HeadingLevel.HEADING_1, alignment: AlignmentType.LEFT }),
          ...paragraphs,
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/** `translation`: the translated segments for dual-language subtitles (options.subtitles.translation). */
export async function exportTranscript(
  document: TranscriptDocument,
  options: ExportOptions,
  title: string,
  translation: CueTranslation | null = null,
): Promise<ExportResult> {
  switch (options.format) {
    case 'txt':
      return { data: transcriptPlainText(document, options), extension: 'txt' };
    case 'srt':
    case 'vtt': {
      const { text, report } = renderSubtitles(document, options.format, options, translation);
      return {
        data: text,
        extension: options.format,
        subtitles: subtitleReport(report, options.format),
      };
    }
    case 'json':
      return { data: exportJson(document, options), extension: 'json' };
    case 'docx':
      return { data: await exportDocx(document, options, title), extension: 'docx' };
    default:
      return assertNever(options.format, 'export format');
  }
}

/** The cues that read too fast, numbered as in the file, their text as the viewer reads it. */
export function subtitleReport(report: CueReport, format: 'srt' | 'vtt'): SubtitleReport {
  const fast: FastSubtitle[] = [];
  report.cues.forEach((cue, k) => {
    if (!cue.tooFast) return;
    fast.push({
      index: k + 1,
      start: cue.start / 1000,
      end: cue.end / 1000,
      text: plainCueText(cue.text, format),
      cps: cue.cps,
      segmentId: cue.segmentId,
    });
  });
  return { cues: report.cues.length, tooFast: report.tooFast, maxCps: report.maxCps, fast };
}

/** "meeting.wav" -> "meeting.srt". */
export function exportFileName(sourceName: string, format: ExportFormat): string {
  const base = safeFileName(sourceName, 'transcript').replace(/\.[^.]+$/, '') || 'transcript';
  return `${base}.${format}`;
}
