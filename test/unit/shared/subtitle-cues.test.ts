import { describe, expect, it } from 'vitest';
import {
  buildCues,
  DEFAULT_CUE_OPTIONS,
  languagePreset,
  MIN_CUE_DURATION,
  type CueOptions,
} from '../../../src-shared/subtitle-cues.js';
import type { TranscriptDocument, TranscriptSegment } from '../../../src-shared/transcript-document.js';

/** A segment whose words are timed one after another, `pace` seconds each. */
function spoken(id: number, start: number, text: string, speaker: string | null = null, pace = 0.3): TranscriptSegment {
  const words = text
    .split(' ')
    .map((word, k) => ({ word, start: start + k * pace, end: start + k * pace + pace * 0.9, confidence: 0.9 }));
  return { id, start, end: words[words.length - 1]!.end, speaker, text, words };
}

function doc(segments: TranscriptSegment[], language = 'en'): TranscriptDocument {
  return {
    transcription_id: 't',
    text: segments.map((s) => s.text).join(' '),
    language,
    duration: 600,
    speaking_duration: 600,
    segments,
    replacements: [],
    engine: { name: 'e', model: 'm', transcription_model: 'default' },
    created_at: '2026-01-01T00:00:00.000Z',
  };
}

const options = (patch: Partial<CueOptions> = {}): CueOptions => ({
  ...DEFAULT_CUE_OPTIONS,
  speakers: 'none',
  ...patch,
});
const lines = (text: string) => text.split('\n');
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

// 100 characters in one whisper segment, as the issue found it: one cue, one line.
const LONG =
  'Welcome everyone to the quarterly review, and thank you for joining us today. We will start with the revenue figures, then costs, and then hiring plans for next year.';

describe('subtitle cues', () => {
  it('cuts a long segment into cues of at most two lines of 42 characters, keeping every word in order', () => {
    const { cues } = buildCues(doc([spoken(0, 0, LONG)]), options());
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      expect(lines(cue.text).length).toBeLessThanOrEqual(2);
      for (const line of lines(cue.text)) expect(line.length).toBeLessThanOrEqual(42);
    }
    expect(plain(cues.map((c) => c.text).join(' '))).toBe(LONG);
  });

  it('never splits a word, and cuts after a sentence before a clause, and a clause before any other word', () => {
    const { cues } = buildCues(doc([spoken(0, 0, LONG)]), options());
    const words = new Set(LONG.split(' '));
    for (const cue of cues) for (const piece of cue.text.split(/\s+/)) expect(words.has(piece)).toBe(true);
    expect(cues[0]!.text).toMatch(/today\.$/);
    expect(cues.slice(0, -1).every((c) => /[.,]$/.test(c.text))).toBe(true);
  });

  it('keeps a cue that fits on one line on one line, and balances two lines', () => {
    const short = buildCues(doc([spoken(0, 0, 'Hello there. General Kenobi!')]), options()).cues;
    expect(short.map((c) => c.text)).toEqual(['Hello there. General Kenobi!']);
    const text = 'The quick brown fox jumps over the lazy dog and runs far away into the woods';
    const [first, second] = lines(buildCues(doc([spoken(0, 0, text, null, 0.2)]), options()).cues[0]!.text);
    expect(Math.abs(first!.length - second!.length)).toBeLessThan(12);
  });

  it('obeys the characters per line and lines per cue it is given', () => {
    const { cues } = buildCues(doc([spoken(0, 0, LONG)]), options({ maxCharsPerLine: 20, maxLinesPerCue: 1 }));
    for (const cue of cues) {
      expect(lines(cue.text)).toHaveLength(1);
      expect(cue.text.length).toBeLessThanOrEqual(20);
    }
    expect(plain(cues.map((c) => c.text).join(' '))).toBe(LONG);
  });

  it('takes cue times from the words, shows no cue longer than the maximum, and leaves the minimum gap', () => {
    // Slow speech: 40 words over 40 s, so duration, not width, forces the cuts.
    const text = Array.from({ length: 40 }, (_, k) => `w${k}`).join(' ');
    const { cues } = buildCues(doc([spoken(0, 10, text, null, 1)]), options({ maxCueDuration: 5, minGap: 0.1 }));
    expect(cues[0]!.start).toBe(10_000);
    for (const cue of cues) expect(cue.end - cue.start).toBeLessThanOrEqual(5000);
    for (let k = 1; k < cues.length; k++) expect(cues[k]!.start - cues[k - 1]!.end).toBeGreaterThanOrEqual(100);
    // Each cue starts when its first word does.
    const startOf = new Map(text.split(' ').map((w, k) => [w, 10_000 + k * 1000]));
    for (const cue of cues) expect(cue.start).toBe(startOf.get(cue.text.split(/\s+/)[0]!));
  });

  it('holds a short cue for the minimum duration when the next cue leaves room, and merges it with the next when not', () => {
    const { cues } = buildCues(
      doc([spoken(0, 0, 'Yes.', null, 0.2), spoken(1, 0.5, 'No.', null, 0.2), spoken(2, 5, 'Maybe.', null, 0.2)]),
      options(),
    );
    // "Yes." would have had 420 ms before "No.": one cue of the same speaker, on one line.
    expect(cues.map((c) => c.text)).toEqual(['Yes. No.', 'Maybe.']);
    expect(cues[0]!.end).toBe(Math.round(MIN_CUE_DURATION * 1000));
    expect(cues[1]!.end).toBe(Math.round((5 + MIN_CUE_DURATION) * 1000));
  });

  describe('the floor: no subtitle shorter than 5/6 s', () => {
    const floor = Math.floor(MIN_CUE_DURATION * 1000);
    const expectReadable = (cues: { start: number; end: number }[], gap = 80) => {
      for (const cue of cues) expect(cue.end - cue.start).toBeGreaterThanOrEqual(floor);
      for (let k = 1; k < cues.length; k++) expect(cues[k]!.start - cues[k - 1]!.end).toBeGreaterThanOrEqual(gap);
    };

    it('merges a cue the next one leaves 82 ms into it, instead of showing it for 82 ms', () => {
      // As an edit left it: "Okay." split off as its own segment, the next starting 162 ms later.
      const { cues } = buildCues(
        doc([spoken(0, 10, 'Okay.', null, 0.2), spoken(1, 10.162, 'So the figures are in.', null, 0.3)]),
        options(),
      );
      expectReadable(cues);
      expect(cues.map((c) => c.text)).toEqual(['Okay. So the figures are in.']);
      expect(cues[0]!.start).toBe(10_000);
    });

    it('tells two speakers in one merged cue apart: their names, a voice tag each, or a dash', () => {
      const segments = [spoken(0, 10, 'Okay.', 'Alice', 0.2), spoken(1, 10.162, 'So the figures are in.', 'Bob', 0.3)];
      const prefixed = buildCues(doc(segments), options({ speakers: 'prefix' })).cues;
      expect(prefixed.map((c) => c.text)).toEqual(['Alice: Okay.\nBob: So the figures are in.']);
      const voiced = buildCues(doc(segments), options({ speakers: 'voice', format: 'vtt' })).cues;
      expect(voiced.map((c) => c.text)).toEqual(['<v Alice>Okay.</v>\n<v Bob>So the figures are in.']);
      const plainCues = buildCues(doc(segments), options()).cues;
      expect(plainCues.map((c) => c.text)).toEqual(['-Okay.\n-So the figures are in.']);
      for (const cues of [prefixed, voiced, plainCues]) expectReadable(cues);
    });

    it('holds cues an edit squeezed into 0.5 s for the minimum when they fit nowhere, moving later ones into the pause', () => {
      // The words say "Hello world" in 0.5 s; the text was edited into far more than one cue holds.
      const edited = {
        ...spoken(0, 2, 'Hello world', null, 0.25),
        text: 'Hello brave new world, how are you doing today? I am fine, thank you very much indeed.',
      };
      edited.end = 2.5;
      const after = spoken(1, 2.6, 'Next.', null, 0.2);
      const later = spoken(2, 20, 'Much later.', null, 0.2);
      const { cues } = buildCues(doc([edited, after, later]), options({ maxCharsPerLine: 20, maxLinesPerCue: 1 }));
      expect(cues.length).toBeGreaterThan(3);
      expectReadable(cues);
      expect(plain(cues.map((c) => c.text).join(' '))).toBe(`${edited.text} Next. Much later.`);
      // Free time before it is used first (at most half a second), and the pause absorbs the rest.
      expect(cues[0]!.start).toBeGreaterThanOrEqual(1500);
      expect(cues.at(-1)!.start).toBe(20_000);
    });

    it('does not pile cues up after the recording ends: they move earlier, into the pause before them', () => {
      const edited = {
        ...spoken(0, 5, 'Hello world', null, 0.25),
        text: 'Hello brave new world, how are you doing today? I am fine, thank you very much indeed.',
      };
      edited.end = 5.5;
      const document = { ...doc([spoken(1, 0, 'Start.', null, 0.2), edited]), duration: 5.6 };
      const { cues } = buildCues(document, options({ maxCharsPerLine: 20, maxLinesPerCue: 1 }));
      expectReadable(cues);
      // The last cue is held for the floor after the last word, as any last cue is, and no longer.
      expect(cues.at(-1)!.end).toBe(Math.round((5.5 + MIN_CUE_DURATION) * 1000));
      expect(cues[0]!.start).toBe(0);
      expect(plain(cues.map((c) => c.text).join(' '))).toBe(`Start. ${edited.text}`);
    });

    it('shares out the time there is when the whole recording has not the room for the floor', () => {
      const edited = {
        ...spoken(0, 0.1, 'Hello world', null, 0.25),
        text: 'Hello brave new world, how are you doing today? I am fine, thank you very much indeed.',
      };
      edited.end = 0.6;
      const { cues } = buildCues(
        { ...doc([edited]), duration: 2 },
        options({ maxCharsPerLine: 20, maxLinesPerCue: 1 }),
      );
      expect(cues.length).toBeGreaterThan(3);
      // Nothing after the recording's end, nothing squashed: each gets a fair share.
      expect(cues.at(-1)!.end).toBeLessThanOrEqual(2000);
      const lengths = cues.map((c) => c.end - c.start);
      expect(Math.min(...lengths)).toBeGreaterThan(200);
      expect(Math.max(...lengths) / Math.min(...lengths)).toBeLessThan(1.5);
      for (let k = 1; k < cues.length; k++) expect(cues[k]!.start).toBeGreaterThanOrEqual(cues[k - 1]!.end);
      expect(cues.every((c) => c.tooFast)).toBe(true);
    });

    it('holds the floor for Japanese too', () => {
      const words = ['はい。', 'では', '始めましょう。'];
      const timed = [
        { word: words[0]!, start: 1, end: 1.1, confidence: 0.9 },
        { word: words[1]!, start: 1.15, end: 1.3, confidence: 0.9 },
        { word: words[2]!, start: 1.3, end: 2.2, confidence: 0.9 },
      ];
      const segments: TranscriptSegment[] = [
        { id: 0, start: 1, end: 1.1, speaker: null, text: words[0]!, words: timed.slice(0, 1) },
        { id: 1, start: 1.15, end: 2.2, speaker: null, text: words[1]! + words[2]!, words: timed.slice(1) },
      ];
      const { cues } = buildCues(doc(segments, 'ja'), options());
      expectReadable(cues);
      expect(cues.map((c) => c.text)).toEqual(['はい。\nでは始めましょう。']);
    });
  });

  describe('orphans: no scrap of a sentence as a subtitle of its own', () => {
    it('cuts a sentence that outlasts one cue so its last cue is not two words ("for Zentrova.")', () => {
      const text = 'Then we move the whole quarterly budget review to next week for Zentrova.';
      const { cues } = buildCues(doc([spoken(0, 0, text, null, 0.55)]), options());
      expect(cues.length).toBe(2);
      for (const cue of cues) expect(cue.text.split(/\s+/).length).toBeGreaterThan(2);
      expect(plain(cues.map((c) => c.text).join(' '))).toBe(text);
      for (const cue of cues) expect(cue.end - cue.start).toBeLessThanOrEqual(7000);
    });

    it('joins a scrap an edit split off as a segment of its own back to the words before it', () => {
      const { cues } = buildCues(
        doc([
          spoken(0, 0, 'Then we move the budget review to next week', null, 0.3),
          spoken(1, 3.4, 'for Zentrova.', null, 0.3),
          spoken(2, 8, 'Thanks.', null, 0.3),
        ]),
        options(),
      );
      expect(cues.map((c) => c.text)).toEqual([
        'Then we move the budget review\nto next week for Zentrova.',
        'Thanks.',
      ]);
      // A whole sentence of two words is not a scrap: "Thanks." keeps its own cue.
      expect(cues[1]!.start).toBe(8000);
    });

    it('does not leave a few Japanese characters as a cue of their own, nor break a line inside a phrase', () => {
      // Edited text (no engine words): split where the dictionary finds words, particles kept with their word.
      const text = '今日は皆さんお集まりいただきありがとうございます、では。';
      const segment: TranscriptSegment = { id: 0, start: 0, end: 3, speaker: null, text, words: [] };
      const { cues } = buildCues(doc([segment], 'ja'), options());
      expect(cues.length).toBeGreaterThan(1);
      for (const cue of cues) expect([...cue.text.replace(/\n/g, '')].length).toBeGreaterThan(5);
      const phrases = ['今日は', '皆さん', 'お集まり', 'いただき', 'ありがとうございます、', 'では。'];
      for (const line of cues.flatMap((c) => lines(c.text))) {
        let rest = line;
        while (rest) {
          const phrase = phrases.find((p) => rest.startsWith(p));
          expect(phrase, `${line} starts inside a phrase`).toBeDefined();
          rest = rest.slice(phrase!.length);
        }
      }
      expect(cues.map((c) => c.text.replace(/\n/g, '')).join('')).toBe(text);
    });
  });

  it('counts cues that read faster than the language allows, without changing them', () => {
    const fast = spoken(0, 0, 'This sentence is spoken far too quickly for anybody to read it.', null, 0.05);
    const slow = spoken(1, 10, 'Slow and easy.', null, 0.6);
    const report = buildCues(doc([fast, slow]), options());
    expect(report.maxCps).toBe(17);
    expect(report.tooFast).toBe(1);
    expect(report.cues).toHaveLength(2);
    expect(report.cues[0]!.tooFast).toBe(true);
    expect(plain(report.cues[0]!.text)).toBe(fast.text);
    expect(report.cues[0]!.cps).toBeGreaterThan(17);
    expect(report.cues[1]!.tooFast).toBe(false);
    expect(languagePreset('ja').maxCps).toBeLessThan(languagePreset('en').maxCps);
  });

  it('names speakers with a prefix at each change of speaker, or a voice tag on every WebVTT cue', () => {
    const segments = [
      spoken(0, 0, LONG, 'Alice'),
      spoken(1, 30, 'And me.', 'Bob'),
      spoken(2, 40, 'Me again.', 'Alice'),
    ];
    const prefixed = buildCues(doc(segments), options({ speakers: 'prefix' })).cues;
    expect(prefixed[0]!.text.startsWith('Alice: Welcome')).toBe(true);
    expect(prefixed[1]!.text).not.toContain('Alice');
    expect(prefixed.at(-2)!.text).toBe('Bob: And me.');
    expect(prefixed.at(-1)!.text).toBe('Alice: Me again.');
    for (const cue of prefixed) for (const line of lines(cue.text)) expect(line.length).toBeLessThanOrEqual(42);
    const voiced = buildCues(doc(segments), options({ speakers: 'voice', format: 'vtt' })).cues;
    expect(voiced.every((c) => c.text.startsWith('<v Alice>') || c.text.startsWith('<v Bob>'))).toBe(true);
    // SRT has no voice tags: the prefix stands in.
    expect(buildCues(doc(segments), options({ speakers: 'voice', format: 'srt' })).cues[0]!.text).toMatch(/^Alice: /);
  });

  it('escapes WebVTT markup in the text and the speaker', () => {
    const [cue] = buildCues(
      doc([spoken(0, 0, 'a <b> & c', 'R&D <team>')]),
      options({ speakers: 'voice', format: 'vtt' }),
    ).cues;
    expect(cue!.text).toBe('<v R&amp;D &lt;team&gt;>a &lt;b&gt; &amp; c');
  });

  it('times an edited segment whose words no longer match its text by its characters', () => {
    const segment = {
      ...spoken(0, 0, 'Hello world', null, 0.5),
      text: 'Hello brave new world, how are you doing today? I am fine, thank you very much indeed.',
    };
    segment.end = 10;
    const { cues } = buildCues(doc([segment]), options({ maxCharsPerLine: 30, maxLinesPerCue: 1 }));
    expect(plain(cues.map((c) => c.text).join(' '))).toBe(segment.text);
    expect(cues[0]!.start).toBe(0);
    expect(cues.at(-1)!.end).toBe(10_000);
  });

  describe('Japanese', () => {
    const ja = (text: string, start = 0, end = 4, words: TranscriptSegment['words'] = []): TranscriptSegment => ({
      id: 0,
      start,
      end,
      speaker: null,
      text,
      words,
    });

    it('counts characters, at most 13 a line, and starts lines after 。', () => {
      const { cues } = buildCues(doc([ja('今日は晴れです。明日は雨です。')], 'ja'), options());
      expect(cues.map((c) => c.text)).toEqual(['今日は晴れです。\n明日は雨です。']);
      const long = '新しい聞き取りの仕組みについては、来週の会議で詳しく説明します。資料は金曜日までに送ってください。';
      const cut = buildCues(doc([ja(long, 0, 12)], 'ja'), options()).cues;
      expect(cut.length).toBeGreaterThan(1);
      for (const cue of cut) for (const line of lines(cue.text)) expect([...line].length).toBeLessThanOrEqual(13);
      expect(cut.map((c) => c.text.replace(/\n/g, '')).join('')).toBe(long);
      // Cues end at 。 or 、, never between two characters of a word.
      for (const cue of cut.slice(0, -1)) expect(cue.text).toMatch(/[。、]$/);
      for (const cue of cut) for (const line of lines(cue.text)) expect(line).not.toMatch(/^[。、）」]/);
    });

    it('breaks only between the engine words when it has them', () => {
      const words = ['田中', 'さんは', '金曜日', 'までに', '資料を', '送ってください。', 'とても', '嬉しいです。'];
      let t = 3;
      const timed = words.map((w) => ({ word: w, start: t, end: (t += 0.2), confidence: 0.9 }));
      const { cues } = buildCues(doc([ja(words.join(''), 3, t, timed)], 'ja'), options());
      const pieces = cues.flatMap((c) => lines(c.text));
      for (const piece of pieces) {
        let rest = piece;
        while (rest) {
          const w = words.find((x) => rest.startsWith(x));
          expect(w, `${piece} starts inside a word`).toBeDefined();
          rest = rest.slice(w!.length);
        }
      }
      expect(cues[0]!.start).toBe(3000);
    });

    it('reads Japanese against its own, lower speed', () => {
      const report = buildCues(doc([ja('今日は晴れです。', 0, 1)], 'ja'), options());
      expect(report.maxCps).toBe(4);
      expect(report.tooFast).toBe(1);
    });
  });

  describe('dual language', () => {
    it('puts the translation of the segment under the original, shared out over its cues', () => {
      const segments = [spoken(0, 0, LONG), spoken(1, 30, 'Thank you.')];
      const translation = {
        language: 'ja',
        segments: [
          {
            segment_id: 0,
            text: '皆さん、四半期レビューへようこそ。ご参加ありがとうございます。まず売上、次にコスト、そして来年の採用計画です。',
          },
          { segment_id: 1, text: 'ありがとう。' },
        ],
      };
      const { cues } = buildCues(doc(segments), options({ translation }));
      const last = cues.at(-1)!;
      expect(last.text).toBe('Thank you.\nありがとう。');
      const firstSegment = cues.filter((c) => c.segmentId === 0);
      expect(firstSegment.length).toBeGreaterThan(1);
      // Every cue shows its original then its share of the translation; together they are the whole translation.
      const shares = firstSegment.map((c) =>
        lines(c.text)
          .filter((l) => /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(l))
          .join(''),
      );
      expect(shares.every((s) => s.length > 0)).toBe(true);
      expect(shares.join('')).toBe(translation.segments[0]!.text);
      expect(
        plain(
          firstSegment
            .map((c) =>
              lines(c.text)
                .filter((l) => /^[A-Za-z]/.test(l))
                .join(' '),
            )
            .join(' '),
        ),
      ).toBe(LONG);
    });

    it('leaves cues of untranslated segments with the original alone', () => {
      const { cues } = buildCues(
        doc([spoken(0, 0, 'Hello.')]),
        options({ translation: { language: 'fr', segments: [] } }),
      );
      expect(cues[0]!.text).toBe('Hello.');
    });
  });
});
