// Subtitle cues as a subtitle editor makes them: from a transcript's words and their times, cues of
// at most `maxLinesPerCue` lines of `maxCharsPerLine` characters, shown at most `maxCueDuration`
// seconds, `minGap` apart; cut after sentences first, then clauses, then between words (never inside
// one); lines balanced; times taken from the words. Cues never span two segments (a segment is one
// speaker's stretch of speech). Each cue's reading speed is measured against the language's usual
// limit, and cues that read too fast are counted, not changed. Defaults and their sources:
// docs/decisions/0021-subtitle-cues.md. Shared by the server's downloads and the desktop export.
// Pure: no node, DOM or electron imports.
import type { TranscriptDocument, TranscriptSegment } from './transcript-document.js';
import { isSpaceless } from './word-text.js';

/** What the user may choose, and within which bounds (the IPC schema and the export form read these). */
export const SUBTITLE_LIMITS = {
  maxCharsPerLine: { min: 8, max: 100 },
  maxLinesPerCue: { min: 1, max: 4 },
  /** Seconds. */
  maxCueDuration: { min: 1, max: 30 },
  /** Seconds. */
  minGap: { min: 0, max: 1 },
} as const;

export type SpeakerStyle = 'none' | 'prefix' | 'voice';

export interface CueOptions {
  /** WebVTT text is escaped, and only WebVTT has voice tags (SRT gets the prefix instead). */
  format: 'srt' | 'vtt';
  /** null: the usual width for the transcript's language (`languagePreset`). */
  maxCharsPerLine: number | null;
  maxLinesPerCue: number;
  /** Seconds. */
  maxCueDuration: number;
  /** Seconds between the end of one cue and the start of the next. */
  minGap: number;
  /** "Alice: …" before the first cue of each speaker's turn, or a WebVTT voice tag `<v Alice>` on every cue. */
  speakers: SpeakerStyle;
  /** Dual-language cues: the translation of each segment under the original's lines. */
  translation?: CueTranslation | null;
}

export interface CueTranslation {
  language: string;
  segments: readonly { segment_id: number; text: string }[];
}

/**
 * 2 lines of 42 characters for at most 7 s, as Netflix's timed-text style guides; 80 ms between cues:
 * their 2-frame gap at 25 fps.
 */
export const DEFAULT_CUE_OPTIONS: CueOptions = {
  format: 'srt',
  maxCharsPerLine: null,
  maxLinesPerCue: 2,
  maxCueDuration: 7,
  minGap: 0.08,
  speakers: 'prefix',
};

/** Netflix's minimum duration of a subtitle event (5/6 s): short cues are held this long when there is room. */
export const MIN_CUE_DURATION = 5 / 6;

export interface LanguagePreset {
  /** Characters per line. */
  maxCharsPerLine: number;
  /** Reading speed above which a cue counts as too fast (characters per second). */
  maxCps: number;
  /** Half-width characters (Latin letters, digits, spaces) count as half a character, as in Japanese subtitling. */
  halfWidthCountsHalf: boolean;
}

const SPACED: LanguagePreset = { maxCharsPerLine: 42, maxCps: 17, halfWidthCountsHalf: false };
/** Netflix's timed-text style guides: Japanese 13 full-width characters and 4 characters/s; Chinese 16 and 9; Korean 16 and 12. */
const PRESETS: Record<string, LanguagePreset> = {
  ja: { maxCharsPerLine: 13, maxCps: 4, halfWidthCountsHalf: true },
  zh: { maxCharsPerLine: 16, maxCps: 9, halfWidthCountsHalf: true },
  yue: { maxCharsPerLine: 16, maxCps: 9, halfWidthCountsHalf: true },
  ko: { maxCharsPerLine: 16, maxCps: 12, halfWidthCountsHalf: true },
};

export function languagePreset(language: string): LanguagePreset {
  return PRESETS[language.toLowerCase().split(/[-_]/)[0]!] ?? SPACED;
}

export interface SubtitleCue {
  /** Milliseconds. */
  start: number;
  end: number;
  /** Lines joined by "\n": the speaker (prefix or voice tag), the original, then the translation. */
  text: string;
  segmentId: number;
  /** Characters per second of the original text over the cue's duration. */
  cps: number;
  tooFast: boolean;
}

export interface CueReport {
  cues: SubtitleCue[];
  /** How many cues read faster than `maxCps`. */
  tooFast: number;
  maxCps: number;
}

// ---------- units: words with their times ----------

interface Unit {
  text: string;
  /** A space stood before it in the text. */
  spaceBefore: boolean;
  start: number;
  end: number;
}

const SENTENCE_END = /[.!?。！？…‼⁇．][)\]}"'”’」』）】〕»]*$/u;
const CLAUSE_END = /[,;:、，；：—–][)\]}"'”’」』）】〕»]*$/u;
/** Punctuation that belongs to the word before it: never the first thing on a line. */
const ATTACHES_LEFT = /^[.,!?;:。、！？，．；：…‼⁇)\]}"'”’」』）】〕»ー〜ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮ]+$/u;
/** Opening brackets belong to the word after them: never the last thing on a line. */
const ATTACHES_RIGHT = /^[([{"'“‘「『（【〔«]+$/u;

const strip = (s: string) => s.replace(/\s+/g, '');

/** The segment's words located in its text, or, when the text was edited away from them, its text split and timed by characters. */
function unitsOf(segment: TranscriptSegment, spaceless: boolean): Unit[] {
  const text = segment.text.trim();
  const words = segment.words.filter((w) => strip(w.word).length > 0);
  const raw =
    words.length > 0 && strip(words.map((w) => w.word).join('')) === strip(text)
      ? fromWords(text, words)
      : fromText(text, segment, spaceless);
  return attachPunctuation(raw);
}

function fromWords(text: string, words: TranscriptSegment['words']): Unit[] {
  const units: Unit[] = [];
  let at = 0;
  for (const w of words) {
    const from = at;
    while (at < text.length && /\s/.test(text[at]!)) at++;
    const spaceBefore = at > from;
    const begin = at;
    let left = strip(w.word).length;
    while (at < text.length && left > 0) {
      if (!/\s/.test(text[at]!)) left--;
      at++;
    }
    units.push({ text: text.slice(begin, at), spaceBefore, start: w.start, end: Math.max(w.start, w.end) });
  }
  return units;
}

/** Words split at spaces (characters for languages without spaces, keeping runs of Latin letters and digits whole), timed in proportion to their characters. */
function fromText(text: string, segment: TranscriptSegment, spaceless: boolean): Unit[] {
  const pieces: { text: string; spaceBefore: boolean }[] = [];
  // Without a dictionary, Japanese words are guessed from scripts: a run of kanji with the kana after it, a run of katakana.
  const pattern = spaceless
    ? /(\s*)([A-Za-z0-9][A-Za-z0-9'’.-]*|[\p{Script=Katakana}ー]+|\p{Script=Han}+\p{Script=Hiragana}*|\S)/gu
    : /(\s*)(\S+)/gu;
  for (const match of text.matchAll(pattern)) pieces.push({ text: match[2]!, spaceBefore: match[1]!.length > 0 });
  const total = pieces.reduce((sum, p) => sum + [...p.text].length, 0) || 1;
  const span = Math.max(0, segment.end - segment.start);
  let done = 0;
  return pieces.map((p) => {
    const start = segment.start + (span * done) / total;
    done += [...p.text].length;
    return { ...p, start, end: segment.start + (span * done) / total };
  });
}

function attachPunctuation(units: Unit[]): Unit[] {
  const out: Unit[] = [];
  let opening: Unit | null = null;
  for (const unit of units) {
    let u = unit;
    if (opening) {
      u = {
        text: opening.text + (u.spaceBefore ? ' ' : '') + u.text,
        spaceBefore: opening.spaceBefore,
        start: opening.start,
        end: u.end,
      };
      opening = null;
    }
    const last = out[out.length - 1];
    if (last && ATTACHES_LEFT.test(u.text)) {
      out[out.length - 1] = {
        ...last,
        text: last.text + (u.spaceBefore ? ' ' : '') + u.text,
        end: Math.max(last.end, u.end),
      };
    } else if (ATTACHES_RIGHT.test(u.text)) {
      opening = u;
    } else {
      out.push(u);
    }
  }
  if (opening) out.push(opening);
  return out;
}

// ---------- measuring ----------

function widthOf(text: string, preset: LanguagePreset): number {
  if (!preset.halfWidthCountsHalf) return [...text].length;
  let width = 0;
  for (const ch of text) width += /[\u0000-\u00ff\uff61-\uff9f]/.test(ch) ? 0.5 : 1;
  return width;
}

type BreakKind = 'sentence' | 'clause' | 'word';

function breakAfter(unit: Unit): BreakKind {
  return SENTENCE_END.test(unit.text) ? 'sentence' : CLAUSE_END.test(unit.text) ? 'clause' : 'word';
}

/** English words a line or cue reads well starting with (Netflix: break before conjunctions and prepositions)... */
const GOOD_START = new Set(
  'and but or so because that which who when where while if although though to of in on at for with from about into than as after before until'.split(
    ' ',
  ),
);
/** ...and words that must stay with what follows (an article with its noun, a subject pronoun with its verb). */
const BAD_END = new Set('a an the my your his her its our their this these those i we you he she they'.split(' '));

const word = (unit: Unit | undefined) => (unit?.text ?? '').toLowerCase().replace(/[^\p{L}']/gu, '');

interface Context {
  units: Unit[];
  /** Prefix sums over units: widths, widths of the spaces before them, sentence ends after them. */
  sumWidth: number[];
  sumSpace: number[];
  sumSentences: number[];
  preset: LanguagePreset;
  /** Width of a line, of a space. */
  maxWidth: number;
  space: number;
  english: boolean;
  spaceless: boolean;
}

/** How bad a break between units[i] and units[i + 1] is (0: after a sentence). */
function breakCost(ctx: Context, i: number, weights: { clause: number; word: number }): number {
  const kind = breakAfter(ctx.units[i]!);
  if (kind === 'sentence') return 0;
  let cost = kind === 'clause' ? weights.clause : weights.word;
  if (ctx.english && kind === 'word') {
    if (GOOD_START.has(word(ctx.units[i + 1]))) cost *= 0.5;
    if (BAD_END.has(word(ctx.units[i]))) cost *= 2;
  }
  return cost;
}

function lineText(units: readonly Unit[]): string {
  return units.map((u, k) => (k > 0 && u.spaceBefore ? ' ' : '') + u.text).join('');
}

function lineWidth(ctx: Context, from: number, to: number): number {
  if (to <= from) return 0;
  return ctx.sumWidth[to]! - ctx.sumWidth[from]! + ctx.sumSpace[to]! - ctx.sumSpace[from + 1]!;
}

/** A line of units[a, b): impossible when too wide (unless it is one unit), and in Japanese worse with a sentence ending inside it. */
function lineCost(ctx: Context, a: number, b: number, prefix: number): number {
  const width = lineWidth(ctx, a, b) + prefix;
  if (width > ctx.maxWidth && b - a > 1) return Infinity;
  const inside = ctx.spaceless && b - a > 1 ? ctx.sumSentences[b - 1]! - ctx.sumSentences[a]! : 0;
  return inside * 8 + Math.max(0, width - ctx.maxWidth) * 10;
}

/** Uneven lines cost more (the sum of squared slack is least when lines are even). */
function slack(ctx: Context, a: number, b: number, prefix: number): number {
  return ((ctx.maxWidth - Math.min(ctx.maxWidth, lineWidth(ctx, a, b) + prefix)) / ctx.maxWidth) ** 2 * 10;
}

/** What the best two-line layout of units[from, to) costs (cue choice weighs it; exact layout is `layout`). */
function twoLineCost(ctx: Context, from: number, to: number, prefix: number): number {
  let best = lineCost(ctx, from, to, prefix);
  for (let t = from + 1; t < to; t++) {
    const cost =
      lineCost(ctx, from, t, prefix) +
      lineCost(ctx, t, to, 0) +
      breakCost(ctx, t - 1, LINE_BREAK) +
      slack(ctx, from, t, prefix) +
      slack(ctx, t, to, 0);
    if (cost < best) best = cost;
  }
  return best;
}

const LINE_BREAK = { clause: 1, word: 4 };
/** Keep a cue on one line when it fits (Netflix); Japanese gives way sooner, to start a line after a sentence. */
const LINE_COST = (ctx: Context) => (ctx.spaceless ? 5 : 50);

// ---------- lines within a cue ----------

/** The fewest lines units[from, to) fill, greedily (the least any layout needs); the first line is `prefix` narrower. */
function linesNeeded(ctx: Context, from: number, to: number, prefix: number): number {
  let lines = 1;
  let width = prefix;
  for (let k = from; k < to; k++) {
    const w = widthOf(ctx.units[k]!.text, ctx.preset);
    const sep = k > from && ctx.units[k]!.spaceBefore && width > 0 ? ctx.space : 0;
    if (width > 0 && width + sep + w > ctx.maxWidth) {
      lines++;
      width = w;
    } else width += sep + w;
  }
  return lines;
}

/** The best break of units[from, to) into at most `maxLines` lines: one line when it fits, else even lines broken at punctuation. */
function layout(ctx: Context, from: number, to: number, prefix: number, maxLines: number): string[] {
  const n = to - from;
  // best[k][j]: the least cost of units[from, from + j) in k lines, and where its last line starts.
  const best: { cost: number; start: number }[][] = [];
  const limit = Math.max(1, maxLines);
  for (let k = 1; k <= limit; k++) {
    best[k] = [];
    for (let j = 1; j <= n; j++) {
      let entry = { cost: Infinity, start: 0 };
      if (k === 1) entry = { cost: lineCost(ctx, from, from + j, prefix), start: 0 };
      else {
        for (let i = k - 1; i < j; i++) {
          const before = best[k - 1]![i]!.cost;
          if (before === Infinity) continue;
          const firstSlack = k === 2 ? slack(ctx, from, from + i, prefix) : 0;
          const cost =
            before +
            firstSlack +
            lineCost(ctx, from + i, from + j, 0) +
            slack(ctx, from + i, from + j, 0) +
            breakCost(ctx, from + i - 1, LINE_BREAK);
          if (cost < entry.cost) entry = { cost, start: i };
        }
      }
      best[k]![j] = entry;
    }
  }
  let chosen = 0;
  let chosenCost = Infinity;
  for (let k = 1; k <= limit; k++) {
    const cost = best[k]![n]!.cost + (k - 1) * LINE_COST(ctx);
    if (cost < chosenCost) {
      chosenCost = cost;
      chosen = k;
    }
  }
  if (chosen === 0) return greedyLines(ctx, from, to, prefix);
  const lines: string[] = [];
  let j = n;
  for (let line = chosen; line >= 1; line--) {
    const start = best[line]![j]!.start;
    lines.unshift(lineText(ctx.units.slice(from + start, from + j)));
    j = start;
  }
  return lines;
}

/** As many lines as it takes (a translation longer than the cue's lines, or a word wider than a line). */
function greedyLines(ctx: Context, from: number, to: number, prefix: number): string[] {
  const lines: string[] = [];
  let start = from;
  let width = prefix;
  for (let k = from; k < to; k++) {
    const w = widthOf(ctx.units[k]!.text, ctx.preset);
    const sep = k > start && ctx.units[k]!.spaceBefore ? ctx.space : 0;
    if (k > start && width + sep + w > ctx.maxWidth) {
      lines.push(lineText(ctx.units.slice(start, k)));
      start = k;
      width = w;
    } else width += sep + w;
  }
  if (to > start) lines.push(lineText(ctx.units.slice(start, to)));
  return lines;
}

// ---------- cues within a segment ----------

/** Where the segment's cues start: a split into cues that fit, cut where the text pauses. */
function cueSpans(ctx: Context, options: CueOptions, prefix: number): [number, number][] {
  const { units } = ctx;
  const n = units.length;
  const capacity = ctx.maxWidth * options.maxLinesPerCue;
  const best: { cost: number; from: number }[] = [{ cost: 0, from: 0 }];
  for (let j = 1; j <= n; j++) {
    best[j] = { cost: Infinity, from: j - 1 };
    for (let i = j - 1; i >= 0; i--) {
      const single = j - i === 1;
      const first = i === 0 ? prefix : 0;
      if (!single && units[j - 1]!.end - units[i]!.start > options.maxCueDuration) break;
      if (!single && linesNeeded(ctx, i, j, first) > options.maxLinesPerCue) break;
      if (best[i]!.cost === Infinity) continue;
      const width = lineWidth(ctx, i, j) + first;
      let cost = 5 + 4 * (1 - Math.min(1, width / capacity)) ** 2;
      if (options.maxLinesPerCue === 2) cost += twoLineCost(ctx, i, j, first) * 0.5;
      if (j < n) {
        const pause = Math.max(0, units[j]!.start - units[j - 1]!.end);
        cost += Math.max(0, breakCost(ctx, j - 1, { clause: 3, word: 10 }) - Math.min(pause, 1) * 4);
      }
      // More sentences than lines: one of them starts mid-line; better to start a cue with it.
      if (ctx.spaceless)
        cost += Math.max(0, ctx.sumSentences[j - 1]! - ctx.sumSentences[i]! - (options.maxLinesPerCue - 1)) * 8;
      if (best[i]!.cost + cost < best[j]!.cost) best[j] = { cost: best[i]!.cost + cost, from: i };
    }
  }
  const spans: [number, number][] = [];
  for (let j = n; j > 0; j = best[j]!.from) spans.unshift([best[j]!.from, j]);
  return spans;
}

function contextFor(units: Unit[], language: string, maxCharsPerLine: number | null): Context {
  const preset = languagePreset(language);
  const space = preset.halfWidthCountsHalf ? 0.5 : 1;
  const sumWidth = [0];
  const sumSpace = [0];
  const sumSentences = [0];
  units.forEach((u, k) => {
    sumWidth.push(sumWidth[k]! + widthOf(u.text, preset));
    sumSpace.push(sumSpace[k]! + (u.spaceBefore ? space : 0));
    sumSentences.push(sumSentences[k]! + (breakAfter(u) === 'sentence' ? 1 : 0));
  });
  return {
    units,
    sumWidth,
    sumSpace,
    sumSentences,
    preset,
    maxWidth: maxCharsPerLine ?? preset.maxCharsPerLine,
    space,
    english: language.toLowerCase().startsWith('en'),
    spaceless: isSpaceless(language),
  };
}

/** A segment's translation cut into `parts` pieces in proportion to `weights`, at the nearest good break. */
function splitTranslation(text: string, language: string, weights: number[]): Unit[][] {
  const units = attachPunctuation(
    fromText(text.trim(), { id: 0, start: 0, end: 0, speaker: null, text, words: [] }, isSpaceless(language)),
  );
  const ctx = contextFor(units, language, null);
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const widths = units.map((u) => widthOf(u.text, ctx.preset));
  const full = widths.reduce((a, b) => a + b, 0) || 1;
  const pieces: Unit[][] = [];
  let from = 0;
  let sumWeights = 0;
  for (let p = 0; p < weights.length - 1; p++) {
    sumWeights += weights[p]!;
    const target = (full * sumWeights) / total;
    let bestCut = from;
    let bestScore = Infinity;
    let at = widths.slice(0, from).reduce((a, b) => a + b, 0);
    for (let cut = from + 1; cut < units.length; cut++) {
      at += widths[cut - 1]!;
      const score = Math.abs(at - target) / full + breakCost(ctx, cut - 1, { clause: 0.05, word: 0.15 });
      if (score < bestScore) {
        bestScore = score;
        bestCut = cut;
      }
    }
    pieces.push(units.slice(from, bestCut));
    from = bestCut;
  }
  pieces.push(units.slice(from));
  return pieces;
}

// ---------- the whole transcript ----------

/** WebVTT cue text must not carry markup characters of its own. */
export function escapeVtt(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface Draft {
  segmentId: number;
  start: number;
  end: number;
  speaker: string | null;
  prefix: string;
  lines: string[];
  translation: string[];
  width: number;
}

export function buildCues(document: TranscriptDocument, options: CueOptions = DEFAULT_CUE_OPTIONS): CueReport {
  const preset = languagePreset(document.language);
  const translations = new Map((options.translation?.segments ?? []).map((s) => [s.segment_id, s.text]));
  const voiced = options.speakers === 'voice' && options.format === 'vtt';
  const drafts: Draft[] = [];
  let previousSpeaker: string | null = null;
  for (const segment of document.segments) {
    if (!segment.text.trim()) continue;
    const units = unitsOf(segment, isSpaceless(document.language));
    if (units.length === 0) continue;
    const ctx = contextFor(units, document.language, options.maxCharsPerLine);
    const newTurn = segment.speaker !== previousSpeaker;
    previousSpeaker = segment.speaker;
    const prefix = options.speakers !== 'none' && !voiced && segment.speaker && newTurn ? `${segment.speaker}: ` : '';
    const prefixWidth = widthOf(prefix, preset);
    const spans = cueSpans(ctx, options, prefixWidth);
    const translated = translations.get(segment.id)?.trim();
    const pieces =
      translated && options.translation
        ? splitTranslation(
            translated,
            options.translation.language,
            spans.map(([i, j]) => lineWidth(ctx, i, j)),
          )
        : null;
    spans.forEach(([i, j], k) => {
      const lines = layout(ctx, i, j, k === 0 ? prefixWidth : 0, options.maxLinesPerCue);
      let translation: string[] = [];
      const piece = pieces?.[k];
      if (piece && piece.length > 0 && options.translation) {
        const target = contextFor(piece, options.translation.language, null);
        translation = layout(target, 0, piece.length, 0, options.maxLinesPerCue);
      }
      drafts.push({
        segmentId: segment.id,
        start: units[i]!.start,
        end: units[j - 1]!.end,
        speaker: segment.speaker,
        prefix: k === 0 ? prefix : '',
        lines,
        translation,
        width: widthOf(lines.join(''), preset),
      });
    });
  }
  drafts.sort((a, b) => a.start - b.start);
  const escape = options.format === 'vtt' ? escapeVtt : (line: string) => line;
  const cues = drafts.map((draft, k): SubtitleCue => {
    const next = drafts[k + 1];
    // Held for the minimum duration when there is room, never past the longest; pulled back to leave
    // the gap before the next cue, unless that cue starts with this one (speakers talking at once).
    let end = Math.min(Math.max(draft.end, draft.start + MIN_CUE_DURATION), draft.start + options.maxCueDuration);
    if (next && end > next.start - options.minGap)
      end = next.start - options.minGap > draft.start ? next.start - options.minGap : Math.min(end, draft.end);
    const start = Math.round(draft.start * 1000);
    const endMs = Math.max(start + 1, Math.round(end * 1000));
    const cps = draft.width / ((endMs - start) / 1000);
    const body = [...draft.lines, ...draft.translation];
    if (draft.prefix) body[0] = draft.prefix + body[0]!;
    const voice = voiced && draft.speaker ? `<v ${escapeVtt(draft.speaker)}>` : '';
    return {
      start,
      end: endMs,
      text: voice + body.map(escape).join('\n'),
      segmentId: draft.segmentId,
      cps: Math.round(cps * 10) / 10,
      tooFast: cps > preset.maxCps + 1e-9,
    };
  });
  return { cues, tooFast: cues.filter((c) => c.tooFast).length, maxCps: preset.maxCps };
}
