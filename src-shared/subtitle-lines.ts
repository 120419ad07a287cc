// Line breaks inside one subtitle cue. Languages written with spaces wrap at spaces on screen, so
// their cues are left as they are. Japanese (and the other languages written without spaces) would
// otherwise wrap at any character, so a cue breaks after its sentence ends (。！？) and, once a line is
// long enough to stand alone, after a comma (、). Pure: no node, DOM or electron imports.
import { isSpaceless } from './word-text.js';

/** Ends of sentences: a new line always starts after them (when text follows). */
const SENTENCE_END = new Set(['。', '！', '？', '!', '?', '．']);
/** Commas: a new line starts after one only when the line has at least COMMA_BREAK_MIN characters. */
const COMMA = new Set(['、', '，']);
/** Shorter lines than this keep going past a comma, so a cue is not cut into fragments. */
export const COMMA_BREAK_MIN = 10;
/** Closing brackets and quotes stay on the line of the punctuation they follow ("はい。」"). */
const CLOSING = new Set(['」', '』', '）', ')', '】', '〕', '"', '”', '’']);

/** The cue text with "\n" between lines, for the transcript's language. */
export function subtitleLines(text: string, language: string): string {
  if (!isSpaceless(language)) return text;
  const chars = [...text.trim()];
  const lines: string[] = [];
  let line = '';
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    line += ch;
    const breakHere = SENTENCE_END.has(ch) || (COMMA.has(ch) && [...line.trim()].length >= COMMA_BREAK_MIN);
    if (!breakHere) continue;
    while (i + 1 < chars.length && (CLOSING.has(chars[i + 1]!) || SENTENCE_END.has(chars[i + 1]!))) line += chars[++i]!;
    if (line.trim()) lines.push(line.trim());
    line = '';
  }
  if (line.trim()) lines.push(line.trim());
  return lines.join('\n');
}
