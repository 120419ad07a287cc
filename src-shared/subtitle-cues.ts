// Subtitle cues as a subtitle editor makes them: from a transcript's words and their times, cues of
// at most `maxLinesPerCue` lines of `maxCharsPerLine` characters, shown at most `maxCueDuration`
// seconds, `minGap` apart; cut after sentences first, then clauses, then between words (never inside
// one); lines balanced; times taken from the words. A cue is one segment's stretch (one speaker's
// speech) unless it would be shown for less than the floor (5/6 s): then it joins a neighbour it fits
// with, or failing that is held for the floor anyway; no cue is a scrap of a sentence ("for Zentrova.")
// when another cut fits. Each cue's reading speed is measured against the language's usual limit, and
// cues that read too fast are listed, not changed. Defaults and their sources: docs/decisions/0021-
// subtitle-cues.md and 0067-subtitle-floor-and-server-options.md. Shared by the server's downloads and
// the desktop export. Pure: no node, DOM or electron imports.
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

export const SPEAKER_STYLES = ['none', 'prefix', 'voice'] as const;
export type SpeakerStyle = (typeof SPEAKER_STYLES)[number];

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

/** Netflix's minimum duration of a subtitle event (5/6 s): no cue is shown for less (decision 0067). */
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
function unitsOf(segment: TranscriptSegment, language: string): Unit[] {
  const text = segment.text.trim();
  const words = segment.words.filter((w) => strip(w.word).length > 0);
  const raw =
    words.length > 0 && strip(words.map((w) => w.word).join('')) === strip(text)
      ? fromWords(text, words)
      : fromText(text, segment, language);
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

/**
 * Japanese lines break between phrases (a word with its particles and endings), not before a particle:
 * a short run of hiragana ("は", "までに", "ます") joins the word before it, and so does hiragana after a
 * kanji (okurigana the dictionary split off: "聞" + "き取り").
 */
function bindsToWordBefore(before: string, word: string, after: string | undefined): boolean {
  if (!/\p{L}$/u.test(before) || isHonorific(word, after ?? '')) return false;
  if (/^\p{Script=Hiragana}{1,3}$/u.test(word)) return true;
  return /\p{Script=Han}$/u.test(before) && /^\p{Script=Hiragana}/u.test(word);
}

const segmenters = new Map<string, Intl.Segmenter>();
/** One segmenter a language: making one loads ICU's dictionary, and a transcript has thousands of segments. */
function wordSegmenter(language: string): Intl.Segmenter {
  let segmenter = segmenters.get(language);
  if (!segmenter) segmenters.set(language, (segmenter = new Intl.Segmenter(language, { granularity: 'word' })));
  return segmenter;
}

/** The honorific お/ご stays with the word it honours ("お集まり"), which the dictionary splits off. */
function isHonorific(before: string, word: string): boolean {
  return /^[おご]$/u.test(before) && /^\p{Script=Han}/u.test(word);
}

/**
 * Words split at spaces, or, for languages written without them, where Intl.Segmenter's dictionary finds
 * word boundaries (ICU: the same words kuromoji would mostly give, and in every runtime here); timed in
 * proportion to their characters.
 */
function fromText(text: string, segment: TranscriptSegment, language: string): Unit[] {
  const pieces: { text: string; spaceBefore: boolean }[] = [];
  if (isSpaceless(language)) {
    const words = Array.from(wordSegmenter(language).segment(text), (w) => w.segment);
    let space = false;
    words.forEach((piece, k) => {
      const last = pieces[pieces.length - 1];
      if (/^\s+$/.test(piece)) space = true;
      else if (last && !space && (isHonorific(last.text, piece) || bindsToWordBefore(last.text, piece, words[k + 1])))
        last.text += piece;
      else {
        pieces.push({ text: piece, spaceBefore: space });
        space = false;
      }
    });
  } else
    for (const match of text.matchAll(/(\s*)(\S+)/gu))
      pieces.push({ text: match[2]!, spaceBefore: match[1]!.length > 0 });
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

/** Costs of a cut (a break between words costs up to 10): a cue shorter than the floor, an orphan. */
const SHORT_CUE_COST = 40;
const FRAGMENT_COST = 25;

/**
 * A scrap of a segment too small to stand as a subtitle of its own ("for Zentrova."): two words or fewer,
 * or under a third of a line (Japanese: under 40 % of its 13 characters, "ください。").
 */
function isFragment(ctx: Context, from: number, to: number): boolean {
  const width = lineWidth(ctx, from, to);
  if (ctx.spaceless) return width < ctx.maxWidth * 0.4;
  return to - from <= 2 || width < ctx.maxWidth / 3;
}

/** Where the segment's cues start: a split into cues that fit, cut where the text pauses. */
function cueSpans(ctx: Context, options: CueOptions, prefix: number, nextStart: number): [number, number][] {
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
      // A cut that leaves a cue too little time to be read, or a scrap of a sentence on its own, is a
      // last resort: any other cut that fits is taken first.
      const shown = (j < n ? units[j]!.start : nextStart) - options.minGap - units[i]!.start;
      if (shown < MIN_CUE_DURATION - 1e-9) cost += SHORT_CUE_COST;
      if (j - i < n && isFragment(ctx, i, j)) cost += FRAGMENT_COST;
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
    fromText(text.trim(), { id: 0, start: 0, end: 0, speaker: null, text, words: [] }, language),
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

/** A cue's text as the viewer reads it: WebVTT's without voice tags, unescaped (the reverse of escapeVtt). */
export function plainCueText(text: string, format: CueOptions['format']): string {
  if (format === 'srt') return text;
  return text
    .replace(/<\/?v(?: [^>]*)?>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** What one segment's stretch of words shows in a cue. */
interface Part {
  segmentId: number;
  speaker: string | null;
  /** "Alice: " before its first line: the first cue of a speaker's turn, prefix style. */
  prefix: string;
  lines: string[];
  translation: string[];
  /** The segment's units it shows, units[from, to), so two neighbours from one segment can be laid out again as one. */
  ctx: Context;
  from: number;
  to: number;
  prefixWidth: number;
}

/** A cue before its times are settled: one part, or several once a cue too short to read was merged. */
interface Draft {
  start: number;
  end: number;
  parts: Part[];
}

/** Netflix's mark for a second speaker in one subtitle: a hyphen, no space, before each speaker's line. */
const DIALOGUE_DASH = '-';

/** How long a cue may appear before its first word, into free time, to be held for the minimum. */
const MAX_LEAD_IN = 0.5;

export function buildCues(document: TranscriptDocument, options: CueOptions = DEFAULT_CUE_OPTIONS): CueReport {
  const preset = languagePreset(document.language);
  const spaceless = isSpaceless(document.language);
  const translations = new Map((options.translation?.segments ?? []).map((s) => [s.segment_id, s.text]));
  const voiced = options.speakers === 'voice' && options.format === 'vtt';
  const spoken = document.segments.flatMap((segment) => {
    if (!segment.text.trim()) return [];
    const units = unitsOf(segment, document.language);
    return units.length > 0 ? [{ segment, units }] : [];
  });
  const starts = spoken.map((s) => s.units[0]!.start).sort((a, b) => a - b);
  /** When the next segment starts: a segment's last cue has until then to be read. */
  const nextStartAfter = (start: number) => {
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! > start) high = mid;
      else low = mid + 1;
    }
    return starts[low] ?? Infinity;
  };
  const drafts: Draft[] = [];
  let previousSpeaker: string | null = null;
  for (const { segment, units } of spoken) {
    const ctx = contextFor(units, document.language, options.maxCharsPerLine);
    const newTurn = segment.speaker !== previousSpeaker;
    previousSpeaker = segment.speaker;
    const prefix = options.speakers !== 'none' && !voiced && segment.speaker && newTurn ? `${segment.speaker}: ` : '';
    const prefixWidth = widthOf(prefix, preset);
    const spans = cueSpans(ctx, options, prefixWidth, nextStartAfter(units[0]!.start));
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
      const first = k === 0 ? prefixWidth : 0;
      let translation: string[] = [];
      const piece = pieces?.[k];
      if (piece && piece.length > 0 && options.translation) {
        const target = contextFor(piece, options.translation.language, null);
        translation = layout(target, 0, piece.length, 0, options.maxLinesPerCue);
      }
      drafts.push({
        start: units[i]!.start,
        end: units[j - 1]!.end,
        parts: [
          {
            segmentId: segment.id,
            speaker: segment.speaker,
            prefix: k === 0 ? prefix : '',
            lines: layout(ctx, i, j, first, options.maxLinesPerCue),
            translation,
            ctx,
            from: i,
            to: j,
            prefixWidth: first,
          },
        ],
      });
    });
  }
  drafts.sort((a, b) => a.start - b.start);
  mergeUnreadable(drafts, options, spaceless);
  const escape = options.format === 'vtt' ? escapeVtt : (line: string) => line;
  // The recording's end, as the document says, and never before the last word.
  const lastWord = drafts.reduce((end, d) => Math.max(end, d.end), 0);
  const recordingEnd = Math.max(document.duration > 0 ? document.duration : Infinity, lastWord);
  const cues = settleTimes(drafts, options, recordingEnd).map(({ draft, start, end }): SubtitleCue => {
    const startMs = Math.round(start * 1000);
    const endMs = Math.max(startMs + 1, Math.round(end * 1000));
    const width = draft.parts.reduce((sum, part) => sum + widthOf(part.lines.join(''), preset), 0);
    const cps = width / ((endMs - startMs) / 1000);
    return {
      start: startMs,
      end: endMs,
      text: cueText(draft, voiced, options.speakers !== 'none', escape),
      segmentId: draft.parts[0]!.segmentId,
      cps: Math.round(cps * 10) / 10,
      tooFast: cps > preset.maxCps + 1e-9,
    };
  });
  return { cues, tooFast: cues.filter((c) => c.tooFast).length, maxCps: preset.maxCps };
}

/** Speakers of the cue's parts in order, neighbours of one speaker as one. */
function speakerRuns(parts: readonly Part[]): Part[][] {
  const runs: Part[][] = [];
  for (const part of parts) {
    const last = runs[runs.length - 1];
    if (last && last[0]!.speaker === part.speaker) last.push(part);
    else runs.push([part]);
  }
  return runs;
}

/**
 * The cue's lines: each speaker's lines, then the translation. Two speakers in one cue (merged because one
 * was too short to read) are told apart as the style says: the prefix, a voice tag each, or a dash.
 */
function cueText(draft: Draft, voiced: boolean, named: boolean, escape: (line: string) => string): string {
  const runs = speakerRuns(draft.parts);
  const dialogue = runs.length > 1;
  const blocks = runs.map((run) => {
    const lines = run.flatMap((part) => {
      const own = part.lines.map(escape);
      if (part.prefix) own[0] = escape(part.prefix) + own[0]!;
      return own;
    });
    const speaker = run[0]!.speaker;
    if (voiced && speaker) lines[0] = `<v ${escapeVtt(speaker)}>${lines[0]!}`;
    else if (dialogue && !(named && speaker)) lines[0] = DIALOGUE_DASH + lines[0]!;
    return lines;
  });
  if (voiced && dialogue)
    blocks.forEach((lines, k) => {
      if (k < blocks.length - 1 && runs[k]![0]!.speaker) lines[lines.length - 1] += '</v>';
    });
  const translation = draft.parts.flatMap((part) => part.translation.map(escape));
  return [...blocks.flat(), ...translation].join('\n');
}

/** a and b as one cue, when it still fits the limits: b's lines under a's (one segment's words laid out again as one). */
function merged(a: Draft, b: Draft, options: CueOptions, spaceless: boolean): Draft | null {
  if (Math.max(a.end, b.end) - a.start > options.maxCueDuration + 1e-9) return null;
  const last = a.parts[a.parts.length - 1]!;
  const first = b.parts[0]!;
  let parts: Part[];
  if (last.segmentId === first.segmentId && last.to === first.from) {
    const { ctx } = last;
    if (linesNeeded(ctx, last.from, first.to, last.prefixWidth) > options.maxLinesPerCue) return null;
    const lines = layout(ctx, last.from, first.to, last.prefixWidth, options.maxLinesPerCue);
    const joined = { ...last, to: first.to, lines, translation: [...last.translation, ...first.translation] };
    parts = [...a.parts.slice(0, -1), joined, ...b.parts.slice(1)];
  } else {
    parts = [...a.parts, { ...first, lines: [...first.lines] }, ...b.parts.slice(1)];
    // One speaker's two segments share a line when it is wide enough for both (Japanese only when it must:
    // its lines start after 。).
    const lineCount = () => parts.reduce((sum, part) => sum + part.lines.length, 0);
    const tail = parts[a.parts.length - 1]!;
    const head = parts[a.parts.length]!;
    if ((!spaceless || lineCount() > options.maxLinesPerCue) && tail.speaker === head.speaker && !head.prefix) {
      const joined = tail.lines[tail.lines.length - 1]! + (spaceless ? '' : ' ') + head.lines[0]!;
      const width = widthOf(joined, tail.ctx.preset) + (tail.lines.length === 1 ? tail.prefixWidth : 0);
      if (width <= tail.ctx.maxWidth) {
        parts[a.parts.length - 1] = { ...tail, lines: [...tail.lines.slice(0, -1), joined] };
        head.lines.shift();
        if (head.lines.length === 0) {
          parts[a.parts.length - 1]!.translation = [...tail.translation, ...head.translation];
          parts.splice(a.parts.length, 1);
        }
      }
    }
    if (lineCount() > options.maxLinesPerCue) return null;
    // A dash before each speaker must still leave the line within its width.
    const runs = speakerRuns(parts);
    if (runs.length > 1 && options.speakers === 'none')
      for (const run of runs) {
        const part = run[0]!;
        if (widthOf(part.lines[0]!, part.ctx.preset) + part.prefixWidth + 1 > part.ctx.maxWidth) return null;
      }
  }
  return { start: a.start, end: Math.max(a.end, b.end), parts };
}

/**
 * A cue the next one leaves too little time to be read (under MIN_CUE_DURATION) joins a neighbour it fits
 * with: one of its own segment first, then one of its speaker, then the next. What fits nowhere is held by
 * `settleTimes` instead.
 */
function mergeUnreadable(drafts: Draft[], options: CueOptions, spaceless: boolean): void {
  let k = 0;
  while (k < drafts.length) {
    const draft = drafts[k]!;
    const next = drafts[k + 1];
    const previous = drafts[k - 1];
    // A scrap of a sentence an edit split off as a segment of its own ("for Zentrova.") goes back to it.
    const scrap = previous ? continuation(previous, draft, options, spaceless) : null;
    if (scrap) {
      drafts.splice(k - 1, 2, scrap);
      k = Math.max(0, k - 1);
      continue;
    }
    const room = next ? next.start - options.minGap - draft.start : Infinity;
    // Speakers who start together overlap instead (settleTimes holds each).
    if (room >= MIN_CUE_DURATION - 1e-9 || (next && startTogether(draft, next, options))) {
      k++;
      continue;
    }
    const candidates = [
      { at: k, with: next ? merged(draft, next, options, spaceless) : null, neighbour: next },
      { at: k - 1, with: previous ? merged(previous, draft, options, spaceless) : null, neighbour: previous },
    ].filter((c) => c.with !== null);
    const closeness = (neighbour: Draft | undefined) => {
      const own = draft.parts[0]!;
      const parts = neighbour?.parts ?? [];
      return (
        (parts.some((p) => p.segmentId === own.segmentId) ? 2 : 0) +
        (parts.some((p) => p.speaker === own.speaker) ? 1 : 0)
      );
    };
    candidates.sort((a, b) => closeness(b.neighbour) - closeness(a.neighbour));
    const chosen = candidates[0];
    if (!chosen) {
      k++;
      continue;
    }
    drafts.splice(chosen.at, 2, chosen.with!);
    k = Math.max(0, chosen.at);
  }
}

/** Pauses up to this long do not part a sentence's scrap from the words before it. */
const SCRAP_PAUSE = 1;

/**
 * `draft` and the cue before it as one, when `draft` is a whole segment that is only a scrap (isFragment),
 * said by the same speaker within a second of a cue that does not end its sentence, and both fit one cue.
 */
function continuation(previous: Draft, draft: Draft, options: CueOptions, spaceless: boolean): Draft | null {
  if (draft.parts.length !== 1) return null;
  const part = draft.parts[0]!;
  const before = previous.parts[previous.parts.length - 1]!;
  if (part.from !== 0 || part.to !== part.ctx.units.length || !isFragment(part.ctx, part.from, part.to)) return null;
  if (before.speaker !== part.speaker || before.segmentId === part.segmentId) return null;
  if (draft.start - previous.end > SCRAP_PAUSE) return null;
  if (breakAfter(before.ctx.units[before.to - 1]!) === 'sentence') return null;
  return merged(previous, draft, options, spaceless);
}

/** Two speakers talking at once: their cues overlap rather than one of them being lost. */
function startTogether(a: Draft, b: Draft, options: CueOptions): boolean {
  const speakers = new Set(a.parts.map((p) => p.speaker));
  return b.start - a.start < options.minGap && !b.parts.some((p) => speakers.has(p.speaker));
}

/**
 * Each cue's times: from its first word to its last, held for the minimum duration and never past the
 * longest, ended `minGap` before the next (unless that one starts with it: speakers talking at once
 * overlap rather than lose a cue). A cue the next one leaves no room for starts earlier into free time
 * (up to MAX_LEAD_IN), and failing that still gets its minimum: the cues after it move later, into the
 * first pause that absorbs them (at the end of the recording, earlier into the pause before them).
 */
function settleTimes(
  drafts: readonly Draft[],
  options: CueOptions,
  recordingEnd: number,
): { draft: Draft; start: number; end: number }[] {
  const out: { draft: Draft; start: number; end: number }[] = [];
  let notBefore = -Infinity;
  drafts.forEach((draft, k) => {
    const next = drafts[k + 1];
    const previousEnd = out[k - 1]?.end ?? 0;
    let start = Math.max(draft.start, notBefore);
    let end = Math.min(Math.max(draft.end, start + MIN_CUE_DURATION), start + options.maxCueDuration);
    if (next && !startTogether(draft, next, options)) {
      end = Math.min(end, next.start - options.minGap);
      if (end - start < MIN_CUE_DURATION && start === draft.start) {
        const earliest = Math.max(k > 0 ? previousEnd + options.minGap : 0, draft.start - MAX_LEAD_IN);
        start = Math.min(draft.start, Math.max(earliest, end - MIN_CUE_DURATION));
      }
      if (end - start < MIN_CUE_DURATION) end = start + MIN_CUE_DURATION;
      notBefore = end + options.minGap;
    } else notBefore = -Infinity;
    out.push({ draft, start, end });
  });
  // Nothing is held on after the recording ends: cues pushed past it end sooner or, at the floor, move
  // earlier into the pause before them.
  const moved = new Map<number, { start: number; end: number }>();
  // A last cue is held for the floor after its words even past the recording's end, as any last cue is.
  const lastWord = drafts.reduce((end, d) => Math.max(end, d.end), 0);
  let limit = Math.max(recordingEnd, lastWord + MIN_CUE_DURATION);
  for (let k = out.length - 1; k >= 0 && out[k]!.end > limit; k--) {
    const start = Math.min(out[k]!.start, limit - MIN_CUE_DURATION);
    if (start < 0) return shareTheRest(out, drafts, recordingEnd);
    moved.set(k, { start, end: limit });
    limit = start - options.minGap;
  }
  for (const [k, times] of moved) Object.assign(out[k]!, times);
  return out;
}

/**
 * The recording has not the room to hold every cue for the floor: the pile-up at its end (the cues pushed
 * later, and the one that pushed them) shares the time from its start to the recording's end, in
 * proportion, so none is shown after the recording and none is squashed to nothing. They read too fast.
 */
function shareTheRest(
  out: { draft: Draft; start: number; end: number }[],
  drafts: readonly Draft[],
  recordingEnd: number,
): { draft: Draft; start: number; end: number }[] {
  let first = out.length - 1;
  while (first > 0 && out[first]!.start > drafts[first]!.start + 1e-9) first--;
  const from = out[first]!.start;
  const to = out[out.length - 1]!.end;
  if (to <= recordingEnd || from >= recordingEnd) return out;
  const scale = (recordingEnd - from) / (to - from);
  for (let k = first; k < out.length; k++) {
    out[k]!.start = from + (out[k]!.start - from) * scale;
    out[k]!.end = from + (out[k]!.end - from) * scale;
  }
  return out;
}
