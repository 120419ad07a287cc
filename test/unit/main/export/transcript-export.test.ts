import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { exportFileName, exportTranscript } from '../../../../src-main/export/transcript-export.js';
import { renderTranscript } from '../../../../src-server/domain/transcript-formats.js';
import type { TranscriptDocument } from '../../../../src-shared/transcript-document.js';

const doc: TranscriptDocument = {
  transcription_id: 't1',
  text: 'Hello there. General Kenobi.',
  language: 'en',
  duration: 5,
  speaking_duration: 4,
  segments: [
    {
      id: 0,
      start: 0.5,
      end: 1.75,
      speaker: 'Alice',
      text: 'Hello there.',
      words: [{ word: 'Hello', start: 0.5, end: 1, confidence: 0.9 }],
    },
    { id: 1, start: 62.25, end: 64, speaker: null, text: 'General Kenobi.', words: [] },
    { id: 2, start: 65, end: 65, speaker: 'Alice', text: '', words: [] },
  ],
  replacements: [],
  engine: { name: 'e', model: 'm', transcription_model: 'default' },
  created_at: '2025-01-01T00:00:00.000Z',
};

/** One entry of a ZIP archive (a .docx), read through its central directory. */
function zipEntry(zip: Buffer, name: string): string {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = zip.readUInt32LE(end + 16);
  for (let i = 0; i < zip.readUInt16LE(end + 10); i++) {
    const method = zip.readUInt16LE(offset + 10);
    const size = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extra = zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    if (zip.toString('utf8', offset + 46, offset + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
    }
    offset += 46 + nameLength + extra;
  }
  throw new Error(`${name} is not in the archive`);
}

const text = async (format: 'txt' | 'srt' | 'vtt' | 'json', speakers: boolean, timestamps: boolean) =>
  (await exportTranscript(doc, { format, speakers, timestamps }, 'T')).data as string;

describe('transcript export', () => {
  it('renders like the server does with its defaults (speakers, no timestamps)', async () => {
    // The server names speakers only when there are two or more (or the team named one); the app's export
    // names them whenever the user asks, so the two meet on a transcript with two speakers.
    const pair: TranscriptDocument = {
      ...doc,
      segments: [...doc.segments, { id: 3, start: 66, end: 67, speaker: 'Bob', text: 'Hi.', words: [] }],
    };
    for (const format of ['txt', 'srt', 'vtt'] as const) {
      const exported = (await exportTranscript(pair, { format, speakers: true, timestamps: false }, 'T')).data;
      expect(exported).toBe(renderTranscript(pair, format));
    }
  });

  it('TXT with and without speakers and timestamps', async () => {
    expect(await text('txt', true, true)).toBe(
      '[00:00:00] Alice: Hello there.\n[00:01:02] General Kenobi.\n[00:01:05] Alice: \n',
    );
    expect(await text('txt', false, false)).toBe('Hello there.\nGeneral Kenobi.\n\n');
  });

  it('SRT and VTT carry times, and speakers only when asked', async () => {
    const srt = await text('srt', true, false);
    expect(srt).toContain('00:00:00,500 --> 00:00:01,750\nAlice: Hello there.');
    expect(srt).toContain('00:01:02,250 --> 00:01:04,000\nGeneral Kenobi.');
    expect(srt).not.toContain('00:01:05'); // empty segments make no cue
    expect(await text('srt', false, false)).not.toContain('Alice');
    const vtt = await text('vtt', true, false);
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toContain('00:00:00.500 --> 00:00:01.750\n<v Alice>Hello there.');
  });

  it('cuts SRT and VTT cues by the subtitle options, and reports how many read too fast', async () => {
    const words =
      'So this is a rather long sentence that somebody said quite quickly in the meeting, and it goes on and on.'.split(
        ' ',
      );
    const long: TranscriptDocument = {
      ...doc,
      segments: [
        {
          id: 0,
          start: 0,
          end: words.length * 0.2,
          speaker: 'Alice',
          text: words.join(' '),
          words: words.map((word, k) => ({ word, start: k * 0.2, end: k * 0.2 + 0.18, confidence: 0.9 })),
        },
      ],
    };
    const subtitles = {
      maxCharsPerLine: 24,
      maxLinesPerCue: 1,
      maxCueDuration: 3,
      minGap: 0.1,
      speakerStyle: 'prefix' as const,
      translation: null,
    };
    const result = await exportTranscript(long, { format: 'srt', speakers: true, timestamps: false, subtitles }, 'T');
    const cues = (result.data as string).trim().split(/\r?\n\r?\n/);
    expect(cues.length).toBeGreaterThan(4);
    for (const cue of cues) {
      const [, times, ...text] = cue.split(/\r?\n/);
      expect(text).toHaveLength(1);
      expect(text[0]!.length).toBeLessThanOrEqual(24);
      const [from, to] = times!.split(' --> ').map((t) =>
        Number(
          t
            .replace(',', '.')
            .split(':')
            .reduce((a, b) => String(Number(a) * 60 + Number(b))),
        ),
      );
      expect(to! - from!).toBeLessThanOrEqual(3);
    }
    expect(cues[0]).toMatch(/\nAlice: So/);
    expect(result.subtitles).toEqual({
      cues: cues.length,
      tooFast: expect.any(Number),
      maxCps: 17,
      fast: expect.any(Array),
    });
    expect(result.subtitles!.tooFast).toBeGreaterThan(0);
    // Which read too fast, numbered as in the file, with the text the file shows.
    const fast = result.subtitles!.fast;
    expect(fast).toHaveLength(result.subtitles!.tooFast);
    for (const cue of fast) {
      expect(cue.cps).toBeGreaterThan(17);
      const [, times, ...text] = cues[cue.index - 1]!.split(/\r?\n/);
      expect(text.join('\n')).toBe(cue.text);
      expect(times!.startsWith(new Date(cue.start * 1000).toISOString().slice(11, 23).replace('.', ','))).toBe(true);
    }

    const vtt = await exportTranscript(
      long,
      { format: 'vtt', speakers: true, timestamps: false, subtitles: { ...subtitles, speakerStyle: 'voice' } },
      'T',
    );
    expect((vtt.data as string).match(/<v Alice>/g)).toHaveLength(vtt.subtitles!.cues);
    // The list shows what is read, not WebVTT's markup.
    expect(vtt.subtitles!.fast.every((cue) => !cue.text.includes('<v '))).toBe(true);
  });

  it('puts the translation under the original in dual-language subtitles', async () => {
    const translation = {
      language: 'fr',
      segments: [
        { segment_id: 0, start: 0.5, end: 1.75, text: 'Bonjour.' },
        { segment_id: 1, start: 62.25, end: 64, text: 'Général Kenobi.' },
      ],
    };
    const subtitles = {
      maxCharsPerLine: null,
      maxLinesPerCue: 2,
      maxCueDuration: 7,
      minGap: 0.08,
      speakerStyle: 'voice' as const,
      translation: 'fr',
    };
    const srt = (
      await exportTranscript(doc, { format: 'srt', speakers: true, timestamps: false, subtitles }, 'T', translation)
    ).data as string;
    expect(srt).toContain('Alice: Hello there.\nBonjour.\n');
    expect(srt).toContain('General Kenobi.\nGénéral Kenobi.\n');
    const vtt = (
      await exportTranscript(doc, { format: 'vtt', speakers: true, timestamps: false, subtitles }, 'T', translation)
    ).data as string;
    expect(vtt).toContain('<v Alice>Hello there.\nBonjour.\n');
  });

  it('JSON keeps the document, leaving out what the options exclude', async () => {
    expect(JSON.parse(await text('json', true, true)).segments[0]).toEqual(doc.segments[0]);
    const bare = JSON.parse(await text('json', false, false));
    expect(bare.segments[0]).toEqual({ id: 0, text: 'Hello there.' });
    expect(bare.transcription_id).toBe('t1');
  });

  it('DOCX is a Word document with the title and the segments', async () => {
    const { data, extension } = await exportTranscript(
      doc,
      { format: 'docx', speakers: true, timestamps: true },
      'Meeting notes',
    );
    expect(extension).toBe('docx');
    const body = zipEntry(data as Buffer, 'word/document.xml');
    expect(body).toContain('Meeting notes');
    expect(body).toContain('[00:01:02] ');
    expect(body).toContain('Alice: ');
    expect(body).toContain('General Kenobi.');
  });

  it('names the file after the audio', () => {
    expect(exportFileName('meeting.2025.wav', 'srt')).toBe('meeting.2025.srt');
    expect(exportFileName('notes', 'docx')).toBe('notes.docx');
    // A name from a server never leads the save dialog into another folder.
    expect(exportFileName('../../evil.wav', 'txt')).toBe('evil.txt');
    expect(exportFileName('..\\evil', 'srt')).toBe('evil.srt');
  });
});
