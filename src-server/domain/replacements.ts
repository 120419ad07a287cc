// Forced replacements (blacklist words): pattern -> replacement over the recognised words.
// Matching is whole-word and case-insensitive: a pattern of one or more words matches the same
// run of recognised words, ignoring case and surrounding punctuation. The matched words merge into
// one word carrying the replacement, timed from the first matched word's start to the last one's
// end, so the transcript stays aligned with the audio. Longer patterns are tried first.
import type { AppliedReplacement, TranscriptSegment, TranscriptWord } from '../../src-shared/transcript-document.js';
import { joinWords } from '../../src-shared/word-text.js';

export interface ReplacementRule {
  pattern: string;
  replacement: string;
}

const normalize = (token: string): string =>
  token
    .normalize('NFKC')
    .toLocaleLowerCase('und')
    .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');

const tokens = (text: string): string[] => text.split(/\s+/).map(normalize).filter((t) => t.length > 0);

export function applyReplacements(
  segments: TranscriptSegment[],
  rules: readonly ReplacementRule[],
  language = 'en',
): { segments: TranscriptSegment[]; applied: AppliedReplacement[] } {
  const ordered = rules
    .map((rule) => ({ rule, pattern: tokens(rule.pattern) }))
    .filter((r) => r.pattern.length > 0)
    .sort((a, b) => b.pattern.length - a.pattern.length);

  const applied = new Map<ReplacementRule, AppliedReplacement>();
  const out = segments.map((segment) => {
    let words = segment.words;
    for (const { rule, pattern } of ordered) {
      const next: TranscriptWord[] = [];
      let matched = false;
      let i = 0;
      while (i < words.length) {
        const run = words.slice(i, i + pattern.length);
        if (run.length === pattern.length && run.every((w, k) => normalize(w.word) === pattern[k])) {
          const confidences = run.map((w) => w.confidence).filter((c): c is number => c !== null);
          next.push({
            word: rule.replacement,
            start: run[0]!.start,
            end: run.at(-1)!.end,
            confidence: confidences.length ? Math.min(...confidences) : null,
          });
          const record = applied.get(rule) ?? { pattern: rule.pattern, replacement: rule.replacement, count: 0, segment_ids: [] };
          record.count += 1;
          if (!record.segment_ids.includes(segment.id)) record.segment_ids.push(segment.id);
          applied.set(rule, record);
          i += pattern.length;
          matched = true;
        } else {
          next.push(words[i]!);
          i += 1;
        }
      }
      if (matched) words = next;
    }
    return words === segment.words ? segment : { ...segment, words, text: joinWords(words, language) };
  });
  return { segments: out, applied: [...applied.values()] };
}
