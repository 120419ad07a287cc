// Replacement rules (`blacklist_words` on the wire): pattern -> replacement over the recognised words.
// Matching is whole-word and case-insensitive: a pattern of one or more words matches the same
// run of recognised words, ignoring case and surrounding punctuation. The matched words merge into
// one word carrying the replacement, timed from the first matched word's start to the last one's
// end, so the transcript stays aligned with the audio. Decision 0004 has the rules.
//
// Linear time (issue 11): each word is normalised once, the rules form a trie keyed by their
// normalised tokens (the root's children are the index by first token), and the words are scanned
// once, left to right, taking the longest pattern that starts at each word. The work is
// O(words × longest pattern + total pattern tokens), whatever the number of rules.
//
// Languages written without spaces (Japanese, Chinese...) match on the text instead of on the
// engine's tokens, whose boundaries are arbitrary there ("聞き" + "とり"): see spaceless-replacements.ts.
import type { AppliedReplacement, TranscriptSegment, TranscriptWord } from '../../src-shared/transcript-document.js';
import { isSpaceless, joinWords } from '../../src-shared/word-text.js';
import { applySpacelessReplacements } from './spaceless-replacements.js';

export interface ReplacementRule {
  pattern: string;
  replacement: string;
}

const normalize = (token: string): string =>
  token
    .normalize('NFKC')
    .toLocaleLowerCase('und')
    .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');

const tokens = (text: string): string[] =>
  text
    .split(/\s+/)
    .map(normalize)
    .filter((t) => t.length > 0);

interface TrieNode {
  next: Map<string, TrieNode>;
  /** The rule whose whole pattern ends here: the first in the dictionary when several are equal. */
  rule: ReplacementRule | null;
}

const node = (): TrieNode => ({ next: new Map(), rule: null });

function buildTrie(rules: readonly ReplacementRule[]): TrieNode {
  const root = node();
  for (const rule of rules) {
    let at = root;
    for (const token of tokens(rule.pattern)) {
      let child = at.next.get(token);
      if (!child) at.next.set(token, (child = node()));
      at = child;
    }
    // An empty pattern (only spaces or punctuation) never matches; a duplicate keeps the first rule.
    if (at !== root && !at.rule) at.rule = rule;
  }
  return root;
}

/** The longest rule matching `normalized` from `start`, with the number of words it covers. */
function longestMatch(
  root: TrieNode,
  normalized: readonly string[],
  start: number,
): { rule: ReplacementRule; length: number } | null {
  let best: { rule: ReplacementRule; length: number } | null = null;
  let at: TrieNode | undefined = root;
  for (let i = start; i < normalized.length; i++) {
    at = at.next.get(normalized[i]!);
    if (!at) break;
    if (at.rule) best = { rule: at.rule, length: i - start + 1 };
  }
  return best;
}

export function applyReplacements(
  segments: TranscriptSegment[],
  rules: readonly ReplacementRule[],
  language = 'en',
): { segments: TranscriptSegment[]; applied: AppliedReplacement[] } {
  if (isSpaceless(language)) return applySpacelessReplacements(segments, rules, language);
  const root = buildTrie(rules);
  const applied = new Map<ReplacementRule, AppliedReplacement>();
  if (root.next.size === 0) return { segments, applied: [] };

  const out = segments.map((segment) => {
    const words = segment.words;
    const normalized = words.map((w) => normalize(w.word));
    let next: TranscriptWord[] | null = null;
    let i = 0;
    while (i < words.length) {
      const match = longestMatch(root, normalized, i);
      if (!match) {
        next?.push(words[i]!);
        i += 1;
        continue;
      }
      next ??= words.slice(0, i);
      const run = words.slice(i, i + match.length);
      let confidence: number | null = null;
      for (const w of run)
        if (w.confidence !== null) confidence = confidence === null ? w.confidence : Math.min(confidence, w.confidence);
      next.push({
        word: match.rule.replacement,
        start: run[0]!.start,
        end: run.at(-1)!.end,
        confidence,
        replaced: { pattern: match.rule.pattern, original: run.map((w) => w.replaced?.original ?? w.word).join(' ') },
      });
      let record = applied.get(match.rule);
      if (!record)
        applied.set(
          match.rule,
          (record = { pattern: match.rule.pattern, replacement: match.rule.replacement, count: 0, segment_ids: [] }),
        );
      record.count += 1;
      // Segments are visited once, in order: the last id recorded is the only one that can repeat.
      if (record.segment_ids.at(-1) !== segment.id) record.segment_ids.push(segment.id);
      i += match.length;
    }
    return next ? { ...segment, words: next, text: joinWords(next, language) } : segment;
  });
  return { segments: out, applied: [...applied.values()] };
}
