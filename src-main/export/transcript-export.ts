// Export of a transcript as TXT, SRT, WebVTT, JSON or DOCX, with or without speakers and timestamps.
// Text and subtitles render through src-shared/transcript-render.ts, as the server's downloads do.
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { stringifySync, type NodeList } from 'subtitle';
import type { ExportFormat, ExportOptions } from '../../src-shared/ipc-contract.js';
import type { TranscriptDocument } from '../../src-shared/transcript-document.js';
import { formatClock, transcriptCues, transcriptPlainText } from '../../src-shared/transcript-render.js';
import { safeFileName } from '../cache/safe-path.js';
import type { FileFilter } from '../host-capabilities.js';

export interface ExportResult {
  data: string | Buffer;
  extension: string;
}

export const EXPORT_FILTERS: Record<ExportFormat, FileFilter> = {
  txt: { name: 'Text', extensions: ['txt'] },
  srt: { name: 'SubRip subtitles', extensions: ['srt'] },
  vtt: { name: 'WebVTT subtitles', extensions: ['vtt'] },
  json: { name: 'JSON', extensions: ['json'] },
  docx: { name: 'Word document', extensions: ['docx'] },
};

/** SRT or WebVTT text of a transcript. */
export function renderSubtitles(document: TranscriptDocument, format: 'srt' | 'vtt', options: Pick<ExportOptions, 'speakers'>): string {
  const cues: NodeList = transcriptCues(document, format, options).map((data) => ({ type: 'cue' as const, data }));
  return stringifySync(cues, { format: format === 'vtt' ? 'WebVTT' : 'SRT' });
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
    sections: [{ children: [new Paragraph({ text: title, heading: HeadingLevel.HEADING_1, alignment: AlignmentType.LEFT }), ...paragraphs] }],
  });
  return Packer.toBuffer(doc);
}

export async function exportTranscript(document: TranscriptDocument, options: ExportOptions, title: string): Promise<ExportResult> {
  switch (options.format) {
    case 'txt':
      return { data: transcriptPlainText(document, options), extension: 'txt' };
    case 'srt':
    case 'vtt':
      return { data: renderSubtitles(document, options.format, options), extension: options.format };
    case 'json':
      return { data: exportJson(document, options), extension: 'json' };
    case 'docx':
      return { data: await exportDocx(document, options, title), extension: 'docx' };
  }
}

/** "meeting.wav" -> "meeting.srt". */
export function exportFileName(sourceName: string, format: ExportFormat): string {
  const base = safeFileName(sourceName, 'transcript').replace(/\.[^.]+$/, '') || 'transcript';
  return `${base}.${format}`;
}
