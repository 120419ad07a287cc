// Forced replacements for languages written without spaces (Japanese, Chinese, Thai...): the engine's
// words there are arbitrary pieces of the text ("聞き" + "とり", or "聞き取りです" as one), so a
// pattern matches the segment's text as it is displayed, across word boundaries or inside a word.
// Decision 0004 has the rules; in short:
//
// - Comparison is on NFKC-normalised lower case, character by character; spaces are ignored (a
//   pattern "きき とり" is "ききとり"), and so is punctuation at the ends of a pattern.
// - Leftmost, then longest, as for spaced languages; a Latin or digit run is not cut in the middle
//   ("cat" does not rewrite "scattered", nor "1" the "10" of "10時").
// - Timing: the replacement spans from where the match starts to where it ends. Where that is inside
//   a word, the word's time is split in proportion to its characters (punctuation counts for no
//   time); the rest of the word stays a word of its own with the rest of the time. Punctuation left
//   over from a split word ("聞き取り。" -> "Kikitori" + "。") stays with the replacement.
//
// Linear time, as the spaced matcher: every character is normalised once, the rules form a trie of
// their characters, and the text is scanned once, taking the longest pattern at each position:
// O(characters × longest pattern + total pattern characters), whatever the number of rules.
import type { AppliedReplacement, TranscriptSegment, TranscriptWord } from '../../src-shared/transcript-document.js';
import { joinWords } from '../../src-shared/word-text.js';
import type { ReplacementRule } from './replacements.js';

interface CharNode {
  next: Map<string, CharNode>;
  rule: ReplacementRule | null;
}

const charNode = (): CharNode => ({ next: new Map(), rule: null });

/** One character of a word (a code point with its combining marks), where it sits and what it weighs. */
interface Unit {
  word: number;
  /** UTF-16 offsets in the word's text. */
  from: number;
  to: number;
  /** Where its normalised characters start and end in the segment's normalised text. */
  normFrom: number;
  normTo: number;
  /** Seconds at its start and end: the word's time split in proportion to its characters. */
  start: number;
  end: number;
}

/** A base character and the marks that belong to it (combining, or half-width kana's voicing marks). */
const UNITS = /\P{M}[\p{M}\uFF9E\uFF9F]*|[\p{M}\uFF9E\uFF9F]+/gu;
const SILENT = /^[\p{P}\p{S}\s]*$/u;
/** Letters of scripts written with spaces, and digits: a match may not cut a run of either. */
const SPACED_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Hangul}]/u;
const DIGIT = /\p{Nd}/u;
const runClass = (ch: string | undefined): 'letter' | 'digit' | null =>
  ch === undefined ? null : SPACED_LETTER.test(ch) ? 'letter' : DIGIT.test(ch) ? 'digit' : null;

const normalizeUnit = (unit: string): string[] => [
  ...unit.normalize('NFKC').toLocaleLowerCase('und').replace(/\s+/gu, ''),
];

function normalizePattern(pattern: string): string[] {
  return [
    ...pattern
      .normalize('NFKC')
      .toLocaleLowerCase('und')
      .replace(/\s+/gu, '')
      .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ''),
  ];
}

function buildCharTrie(rules: readonly ReplacementRule[]): CharNode {
  const root = charNode();
  for (const rule of rules) {
    let at = root;
    for (const ch of normalizePattern(rule.pattern)) {
      let child = at.next.get(ch);
      if (!child) at.next.set(ch, (child = charNode()));
      at = child;
    }
    if (at !== root && !at.rule) at.rule = rule;
  }
  return root;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/** The segment's words cut into units, with the normalised text they make. */
function unitsOf(words: readonly TranscriptWord[]): { units: Unit[]; text: string[]; unitAt: Int32Array } {
  const units: Unit[] = [];
  const text: string[] = [];
  const owners: number[] = [];
  words.forEach((w, k) => {
    const pieces = [...w.word.matchAll(UNITS)];
    const weights: number[] = pieces.map((m) => (SILENT.test(m[0]) ? 0 : 1));
    let total = weights.reduce((a, b) => a + b, 0);
    if (total === 0) {
      weights.fill(1);
      total = weights.length;
    }
    const duration = w.end - w.start;
    const timeAt = (weight: number) =>
      weight <= 0 ? w.start : weight >= total ? w.end : round(w.start + (duration * weight) / total);
    let before = 0;
    pieces.forEach((m, j) => {
      const chars = normalizeUnit(m[0]);
      const unit: Unit = {
        word: k,
        from: m.index,
        to: m.index + m[0].length,
        normFrom: text.length,
        normTo: text.length + chars.length,
        start: timeAt(before),
        end: timeAt(before + weights[j]!),
      };
      before += weights[j]!;
      for (const ch of chars) {
        text.push(ch);
        owners.push(units.length);
      }
      units.push(unit);
    });
  });
  return { units, text, unitAt: Int32Array.from(owners) };
}

interface Match {
  rule: ReplacementRule;
  /** Units [firstUnit, endUnit). */
  firstUnit: number;
  endUnit: number;
}

/** Leftmost-longest matches over the normalised text, each starting and ending on a unit boundary. */
function findMatches(root: CharNode, units: readonly Unit[], text: readonly string[], unitAt: Int32Array): Match[] {
  const matches: Match[] = [];
  /** True when a cut between text[i - 1] and text[i] would split a Latin word or a number. */
  const insideRun = (i: number) => {
    const before = runClass(text[i - 1]);
    return before !== null && before === runClass(text[i]);
  };
  let i = 0;
  while (i < text.length) {
    let best: Match | null = null;
    const first = unitAt[i]!;
    if (units[first]!.normFrom === i && !insideRun(i)) {
      let at: CharNode | undefined = root;
      for (let j = i; j < text.length; j++) {
        at = at.next.get(text[j]!);
        if (!at) break;
        const last = unitAt[j]!;
        if (at.rule && units[last]!.normTo === j + 1 && !insideRun(j + 1))
          best = { rule: at.rule, firstUnit: first, endUnit: last + 1 };
      }
    }
    if (best) {
      matches.push(best);
      i = units[best.endUnit - 1]!.normTo;
    } else i += 1;
  }
  return matches;
}

/** The words of a segment after its matches: replacements, and the unmatched parts of split words. */
function rewrite(
  words: readonly TranscriptWord[],
  units: readonly Unit[],
  matches: readonly Match[],
): TranscriptWord[] {
  const out: TranscriptWord[] = [];
  /** Punctuation split from the start of a word, waiting for the replacement that follows it. */
  let leading = '';
  let lastWasReplacementOf = -1;
  let m = 0;
  let u = 0;
  while (u < units.length) {
    const match = matches[m];
    if (match && match.firstUnit === u) {
      const first = units[u]!;
      const last = units[match.endUnit - 1]!;
      let confidence: number | null = null;
      for (let k = first.word; k <= last.word; k++) {
        const c = words[k]!.confidence;
        if (c !== null) confidence = confidence === null ? c : Math.min(confidence, c);
      }
      let original = '';
      for (let x = u; x < match.endUnit; x++)
        original += words[units[x]!.word]!.word.slice(units[x]!.from, units[x]!.to);
      out.push({
        word: leading + match.rule.replacement,
        start: first.start,
        end: last.end,
        confidence,
        replaced: { pattern: match.rule.pattern, original },
      });
      leading = '';
      lastWasReplacementOf = last.word;
      u = match.endUnit;
      m += 1;
      continue;
    }
    // An unmatched piece: up to the end of its word or the next match, whichever comes first.
    const k = units[u]!.word;
    let end = u;
    while (end < units.length && units[end]!.word === k && !(match && match.firstUnit === end)) end += 1;
    const word = words[k]!;
    const wholeWord = (u === 0 || units[u - 1]!.word !== k) && (end === units.length || units[end]!.word !== k);
    if (wholeWord) {
      out.push(word);
    } else {
      const silent = (x: number) => SILENT.test(word.word.slice(units[x]!.from, units[x]!.to));
      let from = u;
      let to = end;
      // "聞き取り」です。" -> the replacement keeps the punctuation that closed it in the word...
      if (lastWasReplacementOf === k) {
        while (from < to && silent(from)) from += 1;
        if (from > u)
          out[out.length - 1] = {
            ...out[out.length - 1]!,
            word: out[out.length - 1]!.word + word.word.slice(units[u]!.from, units[from - 1]!.to),
          };
      }
      // ...and the punctuation that opened it ("「ききとり" -> "「聞き取り").
      const beforeMatch = match !== undefined && match.firstUnit === end && units[end]!.word === k;
      if (beforeMatch) {
        while (to > from && silent(to - 1)) to -= 1;
        if (to < end) leading = word.word.slice(units[to]!.from, units[end - 1]!.to);
      }
      if (to > from)
        out.push({
          word: word.word.slice(units[from]!.from, units[to - 1]!.to),
          start: units[from]!.start,
          end: units[to - 1]!.end,
          confidence: word.confidence,
        });
    }
    lastWasReplacementOf = -1;
    u = end;
  }
  // Empty words carry no text (joinWords drops them too): they have no units and are left out.
  return out;
}

export function applySpacelessReplacements(
  segments: TranscriptSegment[],
  rules: readonly ReplacementRule[],
  language: string,
): { segments: TranscriptSegment[]; applied: AppliedReplacement[] } {
  const root = buildCharTrie(rules);
  const applied = new Map<ReplacementRule, AppliedReplacement>();
  if (root.next.size === 0) return { segments, applied: [] };
  const out = segments.map((segment) => {
    const { units, text, unitAt } = unitsOf(segment.words);
    const matches = findMatches(root, units, text, unitAt);
    if (matches.length === 0) return segment;
    for (const match of matches) {
      let record = applied.get(match.rule);
      if (!record)
        applied.set(
          match.rule,
          (record = { pattern: match.rule.pattern, replacement: match.rule.replacement, count: 0, segment_ids: [] }),
        );
      record.count += 1;
      if (record.segment_ids.at(-1) !== segment.id) record.segment_ids.push(segment.id);
    }
    const words = rewrite(segment.words, units, matches);
    return { ...segment, words, text: joinWords(words, language) };
  });
  return { segments: out, applied: [...applied.values()] };
}
